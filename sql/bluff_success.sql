-- bluff_success: how often raises are bluffs, and how bluffs fare.
--
-- Grain: one row per (variant, players, policy, stake), stake = the raise's level (its stake_after),
-- policy = the raising seat's (seat_policy in sql/staging.sql: two bots' raises are never pooled); only
-- stakes raised to by a seat of known strength get a row.
-- Population: events rows with kind = 'raise' whose raising seat has a known strength_pct (the raise's
-- seat_strength_pct: the seat's strength_pct in the hand). Raises by seats of unknown strength are left out
-- entirely, and so are the raises the rules oblige (int_forced_raises: the trut d'office, where nothing
-- is chosen, so nothing is bluffed). A bluff is such a raise with strength_pct < $threshold. The answers to a raise are the
-- rows of int_answers_to_raises (answers = true, envit rows left out) that face it: each answer faces
-- the latest raise of the same hand before it (lower seq), so a raise made in answer answers the raise
-- before it. Usually one answer; in the trut family the opponents answer one by one (one "see" is
-- enough). A raise is folded when it has answers and every one is a fold (all_folded of
-- int_raise_outcomes: the raise's outcome_folded), called when one of them is not a fold; a raise without
-- answers (a record that stops early) is neither. Void hands stay in: a called bluff in a void hand counts as called but not
-- as won. With 3 sides the other sides' points are their mean per side.
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the raising seat's policy label
--   stake                      the level raised to
--   raises                     raises by seats of known strength (the sample size of bluff_rate)
--   bluffs                     those with strength_pct < $threshold
--   bluff_rate                 bluffs / raises
--   bluff_ci_low, bluff_ci_high             its 95% Wilson interval
--   folded                     bluffs all of whose answers are folds (in 3-player Trut a bluff that one
--                              opponent folds and the other sees is called, though the folder paid a petit)
--   success_rate               folded / bluffs (NULL when no bluffs)
--   success_ci_low, success_ci_high         its 95% Wilson interval
--   called                     bluffs with an answer that is not a fold (accept, play, a raise back)
--   called_won                 called bluffs whose hand's winner_team is the bluffer's team
--   called_won_rate            called_won / called (NULL when none called)
--   called_won_ci_low, called_won_ci_high   its 95% Wilson interval
--   net_points_per_bluff       mean over bluffs of (points of the bluffer's side - mean points of the
--                              other sides) in the hand, in the variant's per-hand unit (NULL when
--                              no bluffs)
--
-- Parameters
--   $threshold   double in [0, 1], default 0.33: strength_pct below which a raise is a bluff.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy, stake)
-- of a dataset, every column a count or a sum, so that datasets add up: raises, bluffs, folded, called,
-- called_won, and the sum and count of the bluffs' net points. The finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players, sides
    from stg_games
),

answered_raises as (
    select
        events.dataset,
        events.game_id,
        events.hand_no,
        events.team as raiser_team,
        events.stake_after as stake,
        coalesce(seat_policies.policy, seat_policy(null, null, events.seat)) as policy,
        events.seat_strength_pct as strength_pct,
        events.outcome_folded as all_folded
    from stg_events as events
    left join int_seat_policies as seat_policies using (dataset, game_id, seat)
    anti join int_forced_raises as forced using (dataset, game_id, hand_no, seq)
    where events.kind = 'raise' and events.seat_strength_pct is not null
),

judged_raises as (
    select
        games.variant,
        games.players,
        answered_raises.policy,
        answered_raises.stake,
        answered_raises.strength_pct < $threshold as is_bluff,
        answered_raises.all_folded as was_folded,
        not answered_raises.all_folded as was_called,
        hands.winner_team = answered_raises.raiser_team as raiser_won,
        side_points(answered_raises.raiser_team, hands.points_team0, hands.points_team1, hands.points_team2)
        - others_points(
            answered_raises.raiser_team, hands.points_team0, hands.points_team1, hands.points_team2, games.sides
        ) as net_points
    from answered_raises
    inner join stg_hands as hands using (dataset, game_id, hand_no)
    inner join games using (dataset, game_id)
),

tally as (
    select
        variant,
        players,
        policy,
        stake,
        count(*) as raises,
        count(*) filter (where is_bluff) as bluffs,
        count(*) filter (where is_bluff and was_folded) as folded,
        count(*) filter (where is_bluff and was_called) as called,
        count(*) filter (where is_bluff and was_called and raiser_won) as called_won,
        sum(net_points) filter (where is_bluff) as sum_net_points_bluff,
        count(net_points) filter (where is_bluff) as n_net_points_bluff
    from judged_raises
    group by all
)

select * from tally
-- finish
with

per_stake as (
    select
        variant,
        players,
        policy,
        stake,
        sum(raises)::bigint as raises,
        sum(bluffs)::bigint as bluffs,
        sum(folded)::bigint as folded,
        sum(called)::bigint as called,
        sum(called_won)::bigint as called_won,
        sum(sum_net_points_bluff) / sum(n_net_points_bluff) as net_points_per_bluff
    from tally
    group by all
)

select
    variant,
    players,
    policy,
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
order by variant, players, policy nulls last, stake nulls last
