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

with

games as (
    select dataset, game_id, variant, players, sides
    from stg_games
),

game_mirrors as (
    select
        dataset,
        game_id,
        coalesce(player, policy, 'seat' || seat) as player,
        count(distinct team) > 1 as mirror
    from stg_seats
    where hand_no = 1
    group by dataset, game_id, coalesce(player, policy, 'seat' || seat)
),

-- not materialized: read by side_hands and per_seat, a materialized copy (a row per seat and hand) would be held
-- in memory whole, which DuckDB cannot spill; inlined, each reader's joins and aggregates spill as they need
seat_hands as not materialized (
    select
        seats.dataset,
        seats.game_id,
        seats.hand_no,
        seats.seat,
        seats.team,
        games.variant,
        games.players,
        coalesce(seats.player, seats.policy, 'seat' || seats.seat) as player,
        coalesce(game_mirrors.mirror, false) as mirror,
        coalesce(seats.policy = 'random' or starts_with(seats.policy, 'random '), false) as random_bot,
        hands.winner_team is not null as decided,
        seats.team = hands.winner_team as won,
        case
            when hands.winner_team is not null then
                side_points(seats.team, hands.points_team0, hands.points_team1, hands.points_team2)
                - others_points(seats.team, hands.points_team0, hands.points_team1, hands.points_team2, games.sides)
        end as net_points
    from stg_seats as seats
    inner join stg_hands as hands using (dataset, game_id, hand_no)
    inner join games using (dataset, game_id)
    left join game_mirrors
        on game_mirrors.dataset = seats.dataset
        and game_mirrors.game_id = seats.game_id
        and game_mirrors.player = coalesce(seats.player, seats.policy, 'seat' || seats.seat)
),

raises as (
    select dataset, game_id, hand_no, seat, count(*) as raises
    from stg_events
    where kind = 'raise'
    group by dataset, game_id, hand_no, seat
),

answers as (
    select
        dataset,
        game_id,
        hand_no,
        seat,
        count(*) as facing,
        count(*) filter (where verb = 'fold') as folds
    from int_answers_to_raises
    group by dataset, game_id, hand_no, seat
),

side_hands as (
    select distinct dataset, game_id, hand_no, team, variant, players, player, mirror, decided, won, net_points
    from seat_hands
),

results as (
    select
        variant,
        players,
        player,
        mirror,
        count(*) filter (where decided) as decided,
        count(*) filter (where won) as wins,
        avg(net_points) as mean_net_points
    from side_hands
    group by variant, players, player, mirror
),

per_seat as (
    select
        seat_hands.variant,
        seat_hands.players,
        seat_hands.player,
        seat_hands.mirror,
        count(*) as hands,
        count(*) filter (where seat_hands.random_bot) as random_bot_hands,
        coalesce(sum(raises.raises), 0) as raises,
        coalesce(sum(answers.facing), 0) as facing,
        coalesce(sum(answers.folds), 0) as folds
    from seat_hands
    left join raises using (dataset, game_id, hand_no, seat)
    left join answers using (dataset, game_id, hand_no, seat)
    group by seat_hands.variant, seat_hands.players, seat_hands.player, seat_hands.mirror
),

per_player as (
    select *
    from per_seat
    inner join results using (variant, players, player, mirror)
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
