-- game_results: how each policy fares over whole games: games won, and the final score's margin.
--
-- Grain: one row per (variant, players, policy, mirror). `policy` is a side's label (int_side_policies
-- in sql/staging.sql): the policy its seats played, or, for a side whose seats played different specs
-- (a mixed team), every spec once in seat order joined by ' + '; a seat without a policy (a hand-written
-- game) is labelled by its player name, else 'seat' and its number (seat_policy).
-- Population: games with a winner (winner_team not null): a game that stops before its end (an incomplete
-- import) has no result and is left out. A game counts once per side the policy held in it: side-games.
-- `mirror` is true on the side-games of the games where the policy held more than one side (the same bot
-- on both teams, as in a 4-player run of one bot against itself): there every win of the policy is also a
-- loss of it, games_won = games / 2 holds by construction (with 2 sides), and the win rate and margin
-- say nothing about the policy, so they are NULL; such games are a row of their own (mirror = true),
-- never pooled with the games the policy played against others (mirror = false).
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the side's policy label (above)
--   mirror                     true: the policy held more than one side of these games (above)
--   games                      side-games (the sample size)
--   games_won                  those whose side is the game's winner_team
--   win_rate                   games_won / games (NULL on a mirror row)
--   ci_low, ci_high            its 95% Wilson interval (NULL on a mirror row)
--   mean_margin                mean over the side-games of (the side's final score - the mean final score
--                              of the other sides; with 2 sides: the other side's), in the variant's game
--                              unit (`unit`); NULL on a mirror row
--   margin_ci_low, margin_ci_high
--                              its 95% interval: mean_margin -+ 1.959964 * the sample standard deviation
--                              of the margins / sqrt(games) (the normal approximation: with fewer than
--                              about 30 games a t interval would be wider); NULL on a mirror row and with
--                              fewer than 2 games
--   unit                       what the games' scores count (games.unit: points, longs, cames)
--   matches                    French rubbers: side-games that decide a match (match_winner_team not
--                              null), i.e. the side's matches; NULL when no game of the group belongs to a
--                              match (match_no null)
--   matches_won                those whose side is the match_winner_team; NULL as matches
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy,
-- mirror) of a dataset, every column a count or a sum (unit a min, which the finish takes the min of), so
-- that datasets add up: games, games_won, the count, sum and sum of squares of the margins, the count of
-- side-games in a match (match_no not null), matches and matches_won. The finish adds them up, and computes
-- the mean margin and its standard deviation (as stddev_samp) from them.

with

decided_games as (
    select
        dataset,
        game_id,
        variant,
        players,
        sides,
        unit,
        winner_team,
        score_team0,
        score_team1,
        score_team2,
        match_no,
        match_winner_team
    from stg_games
    where winner_team is not null
),

side_games as (
    select
        decided_games.variant,
        decided_games.players,
        decided_games.unit,
        side_policies.policy,
        side_policies.sides_held > 1 as mirror,
        side_policies.team = decided_games.winner_team as won,
        side_points(
            side_policies.team, decided_games.score_team0, decided_games.score_team1, decided_games.score_team2
        )
        - others_points(
            side_policies.team,
            decided_games.score_team0,
            decided_games.score_team1,
            decided_games.score_team2,
            decided_games.sides
        ) as margin,
        decided_games.match_no,
        decided_games.match_winner_team is not null as decides_match,
        side_policies.team = decided_games.match_winner_team as won_match
    from decided_games
    inner join int_side_policies as side_policies using (dataset, game_id)
),

tally as (
    select
        variant,
        players,
        policy,
        mirror,
        min(unit) as unit,
        count(*) as games,
        count(*) filter (where won) as games_won,
        count(margin) as n_margin,
        sum(margin) as sum_margin,
        sum(margin * margin) as sum_margin_squared,
        count(match_no) as in_match,
        count(*) filter (where decides_match) as matches,
        count(*) filter (where won_match) as matches_won
    from side_games
    group by all
)

select * from tally
-- finish
with

sums as (
    select
        variant,
        players,
        policy,
        mirror,
        min(unit) as unit,
        sum(games)::bigint as games,
        sum(games_won)::bigint as games_won,
        sum(n_margin)::bigint as n_margin,
        sum(sum_margin) as sum_margin,
        sum(sum_margin_squared) as sum_margin_squared,
        sum(in_match) > 0 as in_matches,
        sum(matches)::bigint as matches,
        sum(matches_won)::bigint as matches_won
    from tally
    group by all
),

per_policy as (
    select
        *,
        sum_margin / n_margin as mean_margin,
        case
            when n_margin >= 2 then
                sqrt(greatest(0.0, (sum_margin_squared - sum_margin * sum_margin / n_margin) / (n_margin - 1)))
        end as margin_sd
    from sums
)

select
    variant,
    players,
    policy,
    mirror,
    games,
    games_won,
    case when not mirror then games_won / games end as win_rate,
    case when not mirror then wilson_low(games_won, games) end as ci_low,
    case when not mirror then wilson_high(games_won, games) end as ci_high,
    case when not mirror then mean_margin end as mean_margin,
    case when not mirror then mean_margin - 1.959964 * margin_sd / sqrt(games) end as margin_ci_low,
    case when not mirror then mean_margin + 1.959964 * margin_sd / sqrt(games) end as margin_ci_high,
    unit,
    case when in_matches then matches end as matches,
    case when in_matches then matches_won end as matches_won
from per_policy
order by variant, players, policy, mirror
