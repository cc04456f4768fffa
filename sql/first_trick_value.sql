-- first_trick_value: how much winning trick 1 is worth.
--
-- Grain: one row per (variant, players).
-- Population: hands whose trick 1 was played and not tied (trick1_winner >= 0: side 0, 1, or 2 in
-- 3-player Trut). Void hands (winner_team null) stay in: they count in the sample size but as a win for
-- nobody. "The sides that lost trick 1" are the one other team, or the two other players with 3 sides.
-- Points are the variant's per-hand unit (points, stones in valencian, the trut family's points).
--
-- Columns
--   variant, players           the games' variant and player count
--   hands                      hands in the population (the sample size of both rates)
--   p_win_won_first            share of those hands won by the team that won trick 1
--   ci_low_won_first, ci_high_won_first    its 95% Wilson interval
--   p_win_lost_first           share of those hands won by a side that lost trick 1
--   ci_low_lost_first, ci_high_lost_first  its 95% Wilson interval
--   value                      p_win_won_first - p_win_lost_first
--   mean_points_won_first      mean points scored in the hand by the team that won trick 1
--   mean_points_lost_first     mean points scored in the hand by a side that lost trick 1 (with 3
--                              sides, the mean of the two others' points)
--   points_value               mean_points_won_first - mean_points_lost_first
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players) of a dataset,
-- every column a count or a sum, so that datasets add up: hands, won_by_first, won_by_other, and the sums and
-- counts of points_won_first and points_lost_first. The finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players, sides
    from stg_games
),

decided_first_trick as (
    select
        games.variant,
        games.players,
        hands.trick1_winner as first_team,
        hands.winner_team,
        side_points(hands.trick1_winner, hands.points_team0, hands.points_team1, hands.points_team2)
            as points_won_first,
        others_points(
            hands.trick1_winner, hands.points_team0, hands.points_team1, hands.points_team2, games.sides
        ) as points_lost_first
    from stg_hands as hands
    inner join games using (dataset, game_id)
    where hands.trick1_winner >= 0
),

tally as (
    select
        variant,
        players,
        count(*) as hands,
        count(*) filter (where winner_team = first_team) as won_by_first,
        count(*) filter (where winner_team <> first_team) as won_by_other,
        sum(points_won_first) as sum_points_won_first,
        count(points_won_first) as n_points_won_first,
        sum(points_lost_first) as sum_points_lost_first,
        count(points_lost_first) as n_points_lost_first
    from decided_first_trick
    group by all
)

select * from tally
-- finish
with

per_group as (
    select
        variant,
        players,
        sum(hands)::bigint as hands,
        sum(won_by_first)::bigint as won_by_first,
        sum(won_by_other)::bigint as won_by_other,
        sum(sum_points_won_first) / sum(n_points_won_first) as mean_points_won_first,
        sum(sum_points_lost_first) / sum(n_points_lost_first) as mean_points_lost_first
    from tally
    group by all
)

select
    variant,
    players,
    hands,
    won_by_first / hands as p_win_won_first,
    wilson_low(won_by_first, hands) as ci_low_won_first,
    wilson_high(won_by_first, hands) as ci_high_won_first,
    won_by_other / hands as p_win_lost_first,
    wilson_low(won_by_other, hands) as ci_low_lost_first,
    wilson_high(won_by_other, hands) as ci_high_lost_first,
    won_by_first / hands - won_by_other / hands as value,
    mean_points_won_first,
    mean_points_lost_first,
    mean_points_won_first - mean_points_lost_first as points_value
from per_group
order by variant, players
