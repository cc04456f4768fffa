-- stake_distribution: at which stake hands end, and what they are worth.
--
-- Grain: one row per (variant, players, stake), stake = hands.stake (the stake in force when the hand
-- ended; after a refused raise, the stake before it). Only stakes that occur get a row.
-- Population: every hand, void hands included.
--
-- Columns
--   variant, players           the games' variant and player count
--   stake                      the hand's final stake
--   hands                      hands that ended at that stake
--   share                      hands / all hands of the variant and player count
--   ci_low, ci_high            its 95% Wilson interval
--   mean_points                mean total points scored (points_team0 + points_team1, + points_team2
--                              with 3 sides) in hands at that stake, in the variant's per-hand unit
--   mean_points_per_hand       mean total points per hand over all hands of the variant and player
--                              count (the same on every row of a group)
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, stake) of a
-- dataset, every column a count or a sum, so that datasets add up: hands, and the sum and count of
-- total_points. The finish adds them up per stake and per (variant, players) (the share's denominator and
-- mean_points_per_hand) and divides.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

all_hands as (
    select
        games.variant,
        games.players,
        hands.stake,
        hands.points_team0 + hands.points_team1 + coalesce(hands.points_team2, 0) as total_points
    from stg_hands as hands
    inner join games using (dataset, game_id)
),

tally as (
    select
        variant,
        players,
        stake,
        count(*) as hands,
        sum(total_points)::bigint as sum_points,
        count(total_points) as n_points
    from all_hands
    group by all
)

select * from tally
-- finish
with

per_group as (
    select
        variant,
        players,
        sum(hands)::bigint as group_hands,
        sum(sum_points) / sum(n_points) as mean_points_per_hand
    from tally
    group by all
),

per_stake as (
    select
        variant,
        players,
        stake,
        sum(hands)::bigint as hands,
        sum(sum_points) / sum(n_points) as mean_points
    from tally
    group by all
)

select
    per_stake.variant,
    per_stake.players,
    per_stake.stake,
    per_stake.hands,
    per_stake.hands / per_group.group_hands as share,
    wilson_low(per_stake.hands, per_group.group_hands) as ci_low,
    wilson_high(per_stake.hands, per_group.group_hands) as ci_high,
    per_stake.mean_points,
    per_group.mean_points_per_hand
from per_stake
inner join per_group using (variant, players)
order by per_stake.variant, per_stake.players, per_stake.stake nulls last
