-- mano_advantage: how often the eldest's team (the mà, who leads trick 1) wins the hand.
--
-- Grain: one row per (variant, players).
-- Population: hands with a winner (winner_team null, left out: void hands, and a 3-player fortial passed). With 3 sides
-- (3-player Trut) an even chance is 1/3, not 1/2. Points are the variant's per-hand unit.
--
-- Columns
--   variant, players           the games' variant and player count
--   hands                      hands with a winner (the sample size)
--   eldest_wins                those won by eldest_team
--   win_rate                   eldest_wins / hands
--   ci_low, ci_high            its 95% Wilson interval
--   mean_points_eldest         mean points per hand scored by the eldest's team
--   mean_points_other          mean points per hand scored by the other team (with 3 sides: by each
--                              other side, the mean of the two)
--   points_diff                mean_points_eldest - mean_points_other
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players) of a dataset,
-- every column a count or a sum, so that datasets add up: hands, eldest_wins, and the sums and counts of
-- points_eldest and points_other. The finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players, sides
    from stg_games
),

decided_hands as (
    select
        games.variant,
        games.players,
        hands.winner_team = hands.eldest_team as eldest_won,
        side_points(hands.eldest_team, hands.points_team0, hands.points_team1, hands.points_team2)
            as points_eldest,
        others_points(
            hands.eldest_team, hands.points_team0, hands.points_team1, hands.points_team2, games.sides
        ) as points_other
    from stg_hands as hands
    inner join games using (dataset, game_id)
    where hands.winner_team is not null
),

tally as (
    select
        variant,
        players,
        count(*) as hands,
        count(*) filter (where eldest_won) as eldest_wins,
        sum(points_eldest) as sum_points_eldest,
        count(points_eldest) as n_points_eldest,
        sum(points_other) as sum_points_other,
        count(points_other) as n_points_other
    from decided_hands
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
        sum(eldest_wins)::bigint as eldest_wins,
        sum(sum_points_eldest) / sum(n_points_eldest) as mean_points_eldest,
        sum(sum_points_other) / sum(n_points_other) as mean_points_other
    from tally
    group by all
)

select
    variant,
    players,
    hands,
    eldest_wins,
    eldest_wins / hands as win_rate,
    wilson_low(eldest_wins, hands) as ci_low,
    wilson_high(eldest_wins, hands) as ci_high,
    mean_points_eldest,
    mean_points_other,
    mean_points_eldest - mean_points_other as points_diff
from per_group
order by variant, players
