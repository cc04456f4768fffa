-- fold_rates: how often a seat folds when facing a raise, by stake and by the seat's strength decile.
--
-- Grain: one row per (variant, players, policy, stake, decile) for the deciles that occur, plus one row
-- per (variant, players, policy, stake) with decile NULL that counts every answer of that stake (all
-- deciles and answering seats of unknown strength together). policy = the answering seat's (seat_policy):
-- two bots' answers are never pooled.
-- Population: the rows of int_answers_to_raises (answers = true: accept, fold, a raise back, or a play
-- that accepts; answers to an envit are left out). Each answer faces the raise it answers: the latest
-- kind = 'raise' row of the same hand before it (lower seq); stake = that raise's stake_after. Where
-- several seats answer one raise in turn (the trut), each answer counts. The decile is the answering
-- seat's (its strength_pct in the hand, the answer's seat_strength_pct), its policy the seat's in the game
-- (int_seat_policies).
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the answering seat's policy label (seat_policy in sql/staging.sql)
--   stake                      the level of the raise being answered
--   decile                     least(10, floor(strength_pct * 10) + 1) of the answering seat in that
--                              hand, 1 = weakest tenth; NULL on the all-deciles row
--   facing                     answers to raises to that stake (the sample size)
--   folds                      those whose verb is 'fold'
--   fold_rate                  folds / facing
--   ci_low, ci_high            its 95% Wilson interval
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy, stake,
-- decile) of a dataset, decile NULL for the answering seats of unknown strength, every column a count (facing,
-- folds), so that datasets add up. The finish adds them up per decile (the known ones) and over every decile
-- (the all-deciles rows) and divides.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

facing_raises as (
    select
        games.variant,
        games.players,
        coalesce(seat_policies.policy, seat_policy(null, null, answers.seat)) as policy,
        answers.raise_stake as stake,
        -- least() skips NULLs: an unknown strength must stay NULL, not become decile 10
        case
            when answers.seat_strength_pct is not null
                then least(10, floor(answers.seat_strength_pct * 10)::bigint + 1)
        end as decile,
        answers.verb = 'fold' as folded
    from int_answers_to_raises as answers
    left join int_seat_policies as seat_policies using (dataset, game_id, seat)
    inner join games using (dataset, game_id)
),

tally as (
    select
        variant,
        players,
        policy,
        stake,
        decile,
        count(*) as facing,
        count(*) filter (where folded) as folds
    from facing_raises
    group by all
)

select * from tally
-- finish
with

by_decile as (
    select * replace (sum(facing)::bigint as facing, sum(folds)::bigint as folds)
    from tally
    where decile is not null
    group by all
),

all_deciles as (
    select * replace (null::bigint as decile, sum(facing)::bigint as facing, sum(folds)::bigint as folds)
    from tally
    group by all
),

facing_counts as (
    select * from by_decile
    union all
    select * from all_deciles
)

select
    *,
    folds / facing as fold_rate,
    wilson_low(folds, facing) as ci_low,
    wilson_high(folds, facing) as ci_high
from facing_counts
order by variant, players, policy nulls last, stake nulls last, decile nulls last
