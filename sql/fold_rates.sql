-- fold_rates: how often a seat folds when facing a raise, by stake and by the seat's strength decile.
--
-- Grain: one row per (variant, players, stake, decile) for the deciles that occur, plus one row per
-- (variant, players, stake) with decile NULL that counts every answer of that stake (all deciles and
-- answering seats of unknown strength together).
-- Population: the rows of int_raise_answers (answers = true: accept, fold, a raise back, or a play
-- that accepts; answers to an envit are left out). Each answer faces the raise it answers: the latest
-- kind = 'raise' row of the same hand before it (lower seq); stake = that raise's stake_after. Where
-- several seats answer one raise in turn (the trut), each answer counts. The decile is the answering
-- seat's, from seats.
--
-- Columns
--   variant, players           the games' variant and player count
--   stake                      the level of the raise being answered
--   decile                     least(10, floor(strength_pct * 10) + 1) of the answering seat in that
--                              hand, 1 = weakest tenth; NULL on the all-deciles row
--   facing                     answers to raises to that stake (the sample size)
--   folds                      those whose verb is 'fold'
--   fold_rate                  folds / facing
--   ci_low, ci_high            its 95% Wilson interval
--
-- Parameters: none.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

raises as (
    select dataset, game_id, hand_no, seq, stake_after as stake
    from stg_events
    where kind = 'raise'
),

answer_rows as (
    select dataset, game_id, hand_no, seq, seat, verb
    from int_raise_answers
),

-- the asof join picks, for each answer, the raise of the same hand with the largest lower seq
answers_to_raises as (
    select
        answer_rows.dataset,
        answer_rows.game_id,
        answer_rows.hand_no,
        answer_rows.seat,
        answer_rows.verb,
        raises.stake
    from answer_rows
    asof inner join raises
        on answer_rows.dataset = raises.dataset
        and answer_rows.game_id = raises.game_id
        and answer_rows.hand_no = raises.hand_no
        and raises.seq < answer_rows.seq
),

facing_raises as (
    select
        games.variant,
        games.players,
        answers_to_raises.stake,
        -- least() skips NULLs: an unknown strength must stay NULL, not become decile 10
        case
            when seats.strength_pct is not null then least(10, floor(seats.strength_pct * 10)::bigint + 1)
        end as decile,
        answers_to_raises.verb = 'fold' as folded
    from answers_to_raises
    left join stg_seats as seats using (dataset, game_id, hand_no, seat)
    inner join games using (dataset, game_id)
),

by_decile as (
    select
        variant,
        players,
        stake,
        decile,
        count(*) as facing,
        count(*) filter (where folded) as folds
    from facing_raises
    where decile is not null
    group by variant, players, stake, decile
),

all_deciles as (
    select
        variant,
        players,
        stake,
        null::bigint as decile,
        count(*) as facing,
        count(*) filter (where folded) as folds
    from facing_raises
    group by variant, players, stake
),

facing_counts as (
    select * from by_decile
    union all
    select * from all_deciles
)

select
    variant,
    players,
    stake,
    decile,
    facing,
    folds,
    folds / facing as fold_rate,
    wilson_low(folds, facing) as ci_low,
    wilson_high(folds, facing) as ci_high
from facing_counts
order by variant, players, stake nulls last, decile nulls last
