-- bluff_success: how often raises are bluffs, and how bluffs fare.
--
-- Grain: one row per (variant, players, stake), stake = the raise's level (its stake_after); only
-- stakes raised to by a seat of known strength get a row.
-- Population: events rows with kind = 'raise' whose raising seat has a known strength_pct (seats
-- joined on dataset, game_id, hand_no, seat). Raises by seats of unknown strength are left out
-- entirely. A bluff is such a raise with strength_pct < $threshold. The answer to a raise is the
-- next events row of the same hand (higher seq) with answers = true; a raise may have none (a record
-- that stops early), then the bluff is neither folded nor called. Void hands stay in: a called bluff
-- in a void hand counts as called but not as won.
--
-- Columns
--   variant, players           the games' variant and player count
--   stake                      the level raised to
--   raises                     raises by seats of known strength (the sample size of bluff_rate)
--   bluffs                     those with strength_pct < $threshold
--   bluff_rate                 bluffs / raises
--   bluff_ci_low, bluff_ci_high             its 95% Wilson interval
--   folded                     bluffs whose answer's verb is 'fold'
--   success_rate               folded / bluffs (NULL when no bluffs)
--   success_ci_low, success_ci_high         its 95% Wilson interval
--   called                     bluffs whose answer is not a fold (accept, play, or a raise back)
--   called_won                 called bluffs whose hand's winner_team is the bluffer's team
--   called_won_rate            called_won / called (NULL when none called)
--   called_won_ci_low, called_won_ci_high   its 95% Wilson interval
--   net_points_per_bluff       mean over bluffs of (points of the bluffer's team - points of the
--                              other team) in the hand (NULL when no bluffs)
--
-- Parameters
--   $threshold   double in [0, 1], default 0.33: strength_pct below which a raise is a bluff.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

raises as (
    select
        events.dataset,
        events.game_id,
        events.hand_no,
        events.seq,
        events.team as raiser_team,
        events.stake_after as stake,
        seats.strength_pct
    from stg_events as events
    inner join stg_seats as seats using (dataset, game_id, hand_no, seat)
    where events.kind = 'raise' and seats.strength_pct is not null
),

answer_rows as (
    select dataset, game_id, hand_no, seq, verb
    from stg_events
    where answers
),

-- the asof join picks, for each raise, the answer row of the same hand with the smallest higher seq
answered_raises as (
    select
        raises.*,
        answer_rows.verb as answer_verb
    from raises
    asof left join answer_rows
        on raises.dataset = answer_rows.dataset
        and raises.game_id = answer_rows.game_id
        and raises.hand_no = answer_rows.hand_no
        and answer_rows.seq > raises.seq
),

judged_raises as (
    select
        games.variant,
        games.players,
        answered_raises.stake,
        answered_raises.strength_pct < $threshold as is_bluff,
        answered_raises.answer_verb = 'fold' as was_folded,
        answered_raises.answer_verb <> 'fold' as was_called,
        hands.winner_team = answered_raises.raiser_team as raiser_won,
        case answered_raises.raiser_team
            when 0 then hands.points_team0 - hands.points_team1
            else hands.points_team1 - hands.points_team0
        end as net_points
    from answered_raises
    inner join stg_hands as hands using (dataset, game_id, hand_no)
    inner join games using (dataset, game_id)
),

per_stake as (
    select
        variant,
        players,
        stake,
        count(*) as raises,
        count(*) filter (where is_bluff) as bluffs,
        count(*) filter (where is_bluff and was_folded) as folded,
        count(*) filter (where is_bluff and was_called) as called,
        count(*) filter (where is_bluff and was_called and raiser_won) as called_won,
        avg(net_points) filter (where is_bluff) as net_points_per_bluff
    from judged_raises
    group by variant, players, stake
)

select
    variant,
    players,
    stake,
    raises,
    bluffs,
    bluffs / raises as bluff_rate,
    wilson_low(bluffs, raises) as bluff_ci_low,
    wilson_high(bluffs, raises) as bluff_ci_high,
    folded,
    folded / nullif(bluffs, 0) as success_rate,
    wilson_low(folded, bluffs) as success_ci_low,
    wilson_high(folded, bluffs) as success_ci_high,
    called,
    called_won,
    called_won / nullif(called, 0) as called_won_rate,
    wilson_low(called_won, called) as called_won_ci_low,
    wilson_high(called_won, called) as called_won_ci_high,
    net_points_per_bluff
from per_stake
order by variant, players, stake nulls last
