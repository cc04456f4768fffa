-- strength_curve: how often a seat's team wins the hand, by the seat's hand-strength decile.
--
-- Grain: one row per (variant, players, policy, decile); decile 1..10, only deciles that occur get a row.
-- policy = the seat's (seat_policy in sql/staging.sql): how a bot turns its hands into wins is its own,
-- never pooled with another bot's.
-- Population: seats rows with strength_pct not null, in hands with a winner (winner_team null left out:
-- void hands, a 3-player fortial passed).
-- In 4- and 6-player games every partner of a team appears, each as its own seat-hand; in 3-player
-- Trut each seat is its own side.
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the seat's policy label
--   decile                     least(10, floor(strength_pct * 10) + 1): 1 = weakest tenth
--   n                          seat-hands in the decile (the sample size)
--   wins                       those whose seat's team is the hand's winner_team
--   p_win                      wins / n
--   ci_low, ci_high            its 95% Wilson interval
--   mean_net_points            mean of (points of the seat's side - mean points of the other sides;
--                              with 2 sides: the other team's points), in the variant's per-hand unit
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy, decile)
-- of a dataset, every column a count or a sum, so that datasets add up: n, wins, and the sum and count of
-- net_points. The finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players, sides
    from stg_games
),

decided_hands as (
    select
        hands.dataset,
        hands.game_id,
        hands.hand_no,
        games.variant,
        games.players,
        hands.winner_team,
        games.sides,
        hands.points_team0,
        hands.points_team1,
        hands.points_team2
    from stg_hands as hands
    inner join games using (dataset, game_id)
    where hands.winner_team is not null
),

seat_hands as (
    select
        decided_hands.variant,
        decided_hands.players,
        seat_policy(seats.policy, seats.player, seats.seat) as policy,
        least(10, floor(seats.strength_pct * 10)::bigint + 1) as decile,
        seats.team = decided_hands.winner_team as won,
        side_points(seats.team, decided_hands.points_team0, decided_hands.points_team1, decided_hands.points_team2)
        - others_points(
            seats.team,
            decided_hands.points_team0,
            decided_hands.points_team1,
            decided_hands.points_team2,
            decided_hands.sides
        ) as net_points
    from stg_seats as seats
    inner join decided_hands using (dataset, game_id, hand_no)
    where seats.strength_pct is not null
),

tally as (
    select
        variant,
        players,
        policy,
        decile,
        count(*) as n,
        count(*) filter (where won) as wins,
        sum(net_points) as sum_net_points,
        count(net_points) as n_net_points
    from seat_hands
    group by all
)

select * from tally
-- finish
with

per_decile as (
    select
        variant,
        players,
        policy,
        decile,
        sum(n)::bigint as n,
        sum(wins)::bigint as wins,
        sum(sum_net_points) / nullif(sum(n_net_points), 0) as mean_net_points
    from tally
    group by all
)

select
    variant,
    players,
    policy,
    decile,
    n,
    wins,
    wins / n as p_win,
    wilson_low(wins, n) as ci_low,
    wilson_high(wins, n) as ci_high,
    mean_net_points
from per_decile
order by variant, players, policy, decile
