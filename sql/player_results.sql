-- player_results: how each player, or each bot, fares: hands won, net points, raises made, folds when
-- facing a raise.
--
-- Grain: one row per (variant, players, player, mirror). `player` is the seat's `player` (an imported game's
-- SeatN name), else its `policy` (a simulated seat's bot, e.g. "random"), else `seatN` (FORMAT.md's default
-- name of a seat without a SeatN tag, in a game without PolicyN tags either).
-- Population: seat-hands (rows of seats) for the raises and folds: a name or a bot counts once per hand
-- and seat it sat at. Side-hands for the results: once per hand and side it played for, since partners
-- share their side's result. Two partners with one bot are one result, not two (counting them twice
-- halved the interval's width for no new information); a bot on both sides of a hand (4-player games of
-- one bot against itself) wins one of its two side-hands.
-- Mirror: the hands in which the player held more than one side (the same bot on both teams, as in a
-- 4-player run of a bot and its partner against the same bot and the random bot) are a row of their own,
-- mirror = true (found on each game's first hand: a seat's name and policy are the game's, SeatN and
-- PolicyN tags or a simulation's bots): there it wins exactly one of its side-hands by construction (each decided hand is a win
-- and a loss of it), so win_rate, its interval and mean_net_points are NULL on that row; the raise and
-- fold columns are the seats' own choices and stay.
--
-- Columns
--   variant, players           the games' variant and player count
--   player                     the seat's player name, else its policy, else 'seat' and its number
--   mirror                     true: hands in which the player held more than one side (above)
--   hands                      seat-hands (the sample size of the raise and fold columns)
--   random_bot_hands           those whose seat's policy is the random bot (`random`, its first word),
--                              whether or not the seat has a player's name: what the report's
--                              "not like for like" caveat counts
--   decided                    side-hands in hands with a winner (winner_team null left out: void hands,
--                              a 3-player fortial passed)
--   wins                       decided side-hands whose side is the hand's winner_team
--   win_rate                   wins / decided (NULL when decided = 0, and on a mirror row)
--   ci_low, ci_high            its 95% Wilson interval (NULL on a mirror row)
--   mean_net_points            over the decided side-hands: points of the side - mean points of the other
--                              sides (with 2 sides: the other team's points), in the variant's per-hand
--                              unit (NULL on a mirror row)
--   raises                     rows of events with kind = 'raise' made by the seat: the raise ladders,
--                              the trut, French raises (envit calls, kind = 'envit', are not counted)
--   raises_per_hand            raises / hands
--   facing                     the seat's answers to a raise (int_answers_to_raises: envit answers left
--                              out)
--   folds                      those whose verb is 'fold'
--   fold_rate                  folds / facing (NULL when facing = 0)
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, player, mirror)
-- of a dataset, every column a count or a sum, so that datasets add up: hands, random_bot_hands, decided,
-- wins, the sum and count of the decided side-hands' net points, raises, facing and folds. The mirror flag is
-- found within each game, so a dataset's tally sees it whole. The finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players, sides
    from stg_games
),

-- A seat's name and policy are the game's (read on its first hand, as int_seat_policies does): every count
-- below is made per game and seat, then weighted by the game's hands, rather than over a row per seat and hand
-- (20 M rows over 10 M hands, whose joins and distinct outgrew DuckDB's memory limit).
game_seats as (
    select
        seats.dataset,
        seats.game_id,
        seats.seat,
        seats.team,
        games.variant,
        games.players,
        games.sides,
        coalesce(seats.player, seats.policy, 'seat' || seats.seat) as player,
        coalesce(seats.policy = 'random' or starts_with(seats.policy, 'random '), false) as random_bot
    from stg_seats as seats
    inner join games using (dataset, game_id)
    where seats.hand_no = 1
),

game_mirrors as (
    select dataset, game_id, player, count(distinct team) > 1 as mirror
    from game_seats
    group by dataset, game_id, player
),

labelled_seats as (
    select game_seats.*, game_mirrors.mirror
    from game_seats
    inner join game_mirrors using (dataset, game_id, player)
),

game_hands as (
    select dataset, game_id, count(*) as hands
    from stg_hands
    group by dataset, game_id
),

raises as (
    select dataset, game_id, seat, count(*) as raises
    from stg_events
    where kind = 'raise'
    group by dataset, game_id, seat
),

answers as (
    select
        dataset,
        game_id,
        seat,
        count(*) as facing,
        count(*) filter (where verb = 'fold') as folds
    from int_answers_to_raises
    group by dataset, game_id, seat
),

game_sides as (
    select distinct dataset, game_id, team, variant, players, sides, player, mirror
    from labelled_seats
),

side_hands as (
    select
        game_sides.variant,
        game_sides.players,
        game_sides.player,
        game_sides.mirror,
        hands.winner_team is not null as decided,
        game_sides.team = hands.winner_team as won,
        case
            when hands.winner_team is not null then
                side_points(game_sides.team, hands.points_team0, hands.points_team1, hands.points_team2)
                - others_points(
                    game_sides.team, hands.points_team0, hands.points_team1, hands.points_team2, game_sides.sides
                )
        end as net_points
    from game_sides
    inner join stg_hands as hands using (dataset, game_id)
),

results as (
    select
        variant,
        players,
        player,
        mirror,
        count(*) filter (where decided) as decided,
        count(*) filter (where won) as wins,
        sum(net_points) as sum_net_points,
        count(net_points) as n_net_points
    from side_hands
    group by all
),

per_seat as (
    select
        labelled_seats.variant,
        labelled_seats.players,
        labelled_seats.player,
        labelled_seats.mirror,
        sum(game_hands.hands)::bigint as hands,
        coalesce(sum(game_hands.hands) filter (where labelled_seats.random_bot), 0)::bigint as random_bot_hands,
        coalesce(sum(raises.raises), 0)::bigint as raises,
        coalesce(sum(answers.facing), 0)::bigint as facing,
        coalesce(sum(answers.folds), 0)::bigint as folds
    from labelled_seats
    inner join game_hands using (dataset, game_id)
    left join raises using (dataset, game_id, seat)
    left join answers using (dataset, game_id, seat)
    group by all
),

tally as (
    select *
    from per_seat
    inner join results using (variant, players, player, mirror)
)

select * from tally
-- finish
with

per_player as (
    select
        variant,
        players,
        player,
        mirror,
        sum(hands)::bigint as hands,
        sum(random_bot_hands)::bigint as random_bot_hands,
        sum(decided)::bigint as decided,
        sum(wins)::bigint as wins,
        sum(sum_net_points) / sum(n_net_points) as mean_net_points,
        sum(raises) as raises,
        sum(facing) as facing,
        sum(folds) as folds
    from tally
    group by all
)

select
    variant,
    players,
    player,
    mirror,
    hands,
    random_bot_hands,
    decided,
    wins,
    case when decided > 0 and not mirror then wins / decided end as win_rate,
    case when not mirror then wilson_low(wins, decided) end as ci_low,
    case when not mirror then wilson_high(wins, decided) end as ci_high,
    case when not mirror then mean_net_points end as mean_net_points,
    raises::bigint as raises,
    raises / hands as raises_per_hand,
    facing::bigint as facing,
    folds::bigint as folds,
    case when facing > 0 then folds / facing end as fold_rate
from per_player
order by variant, players, player, mirror
