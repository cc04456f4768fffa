-- staging.sql: the four tables of one or several datasets as typed views, the views and macros the
-- statistics' tallies share.
--
-- Grain
--   stg_games   one row per game    (dataset, game_id)
--   stg_hands   one row per hand    (dataset, game_id, hand_no)
--   stg_seats   one row per seat and hand (dataset, game_id, hand_no, seat)
--   stg_events  one row per recorded action (dataset, game_id, hand_no, seq)
--
-- The views only name and type the Parquet columns (docs/data.md says what each means), with one
-- addition: `dataset`, the folder the row was read from, a constant of each dataset's read (nothing is
-- parsed from a file's name). game_id is unique only within one dataset, so every join between tables
-- must include `dataset` when several folders are read together.
-- Integer columns are widened to bigint: arithmetic on them cannot overflow, and every integer a
-- statistic returns is a 64-bit integer (polars Int64).
--
-- Sources (views the caller, stats.create_staging, makes before this file runs)
--   src_games, src_hands, src_seats, src_events
--       every Parquet column of that table, as written, with `dataset` first: for each dataset folder,
--       its parts (those its manifest lists) read with read_parquet and the folder's path as a
--       constant, the datasets joined by `union all`.
--
-- Sides: 2 (two teams, or two players), or 3 in 3-player Trut (each player alone, team = seat). A side's
-- points in a hand are
-- points_team0, points_team1 or points_team2 (null with 2 sides).
--
-- Intermediate views (the only ones here with logic; every statistic reads them instead of redoing it)
--   int_envit_steps     one row per envit-ladder row (valencian): every call (`envit`, `torne`, `falta`,
--                       `envit-falta`) and every answer to a call. The answer to a call is the next row of
--                       the hand among the calls and the `accept`/`fold` rows: an `accept`/`fold` right
--                       after a call (in that order) answers the envit, a call right after a call raises it.
--                       This holds whatever `kind` and `answers` the engine gives these rows: an `accept`
--                       or `fold` answers the most recent pending proposal (FORMAT.md), and while an envit
--                       is pending nobody raises the truc.
--       columns: dataset, game_id, hand_no, seq, seat, team, verb,
--                is_call (the row is a call), answers_call (the row answers the call before it),
--                answered_call, answered_seq (the verb and seq of the call it answers, null when
--                answers_call is false)
--   int_raise_answers   the stg_events rows that answer a raise of the raise ladder (truc, raise N, trut):
--                       answers = true and not an envit-ladder row (envit_step, below). Same columns as
--                       stg_events.
--   int_answers_to_raises
--                       one row per row of int_raise_answers that has a raise before it, with the raise it
--                       faces: the latest kind = 'raise' row of the same hand before it (lower seq), its
--                       raise_seq and raise_stake. A raise made in answer faces the raise before it; in the trut
--                       family several seats answer one raise in turn, one row each. Answers with no raise
--                       before them are left out.
--       columns: dataset, game_id, hand_no, raise_seq, raise_stake (the seq and stake_after of the raise
--                faced), seq, seat, team, verb, kind (the answer's), seat_strength_pct (the answering seat's)
--   int_raise_outcomes  one row per raise with at least one answer in int_answers_to_raises (a raise
--                       without answers, in a record that stops early, has no row).
--       columns: dataset, game_id, hand_no, seq (the raise's),
--                all_folded (every answer is a fold), accepted (an answer is an `accept`, or a play that
--                accepts), raised (an answer is a raise, kind = 'raise'), answers (how many)
--   These three read the facts the writer derived once from the hand's rows (docs/data.md, "events"):
--   envit_step (the row is a row of int_envit_steps), raise_seq and raise_stake (on an answer that is not an
--   envit step, the seq and stake_after of the latest kind = 'raise' row of the hand before it), the outcome_*
--   columns of a raise (its answers summed up) and seat_strength_pct (the acting seat's strength_pct). No
--   window, no join: each is a filter of stg_events.
--   int_seat_policies   one row per seat of a game (dataset, game_id, seat): its team and its policy label
--                       (seat_policy, below), from the game's first hand (hand_no = 1): a seat keeps its
--                       policy for a whole game (a simulation's bot, an import's PolicyN and SeatN tags, which
--                       are the game's). Joined on (dataset, game_id, seat), it labels an event's seat without
--                       a join on every hand's seats.
--       columns: dataset, game_id, seat, team, policy
--   int_game_policies   one row per game (dataset, game_id): seat_policies, the list of its seats' policy labels
--                       (int_seat_policies) in seat order, so that seat_policies[seat + 1] is a seat's (every
--                       seat, 0 to players - 1, holds a row in the game's first hand). Carried by a statistic's
--                       per-game row, which it joins anyway for the variant, it labels each event's seat with no
--                       join on (dataset, game_id, seat): over 10 M hands DuckDB built that join's hash table
--                       on the 30 M events rather than on the 1.4 M seats, two thirds of raise_rates' time.
--       columns: dataset, game_id, seat_policies
--   int_side_policies   one row per side of a game (dataset, game_id, team): the policy label of the side,
--                       from int_seat_policies: a side whose seats all carry one label has that label, a side
--                       whose seats carry several has them all, each once, in the order of their first seat,
--                       joined by ' + ' (e.g. 'threshold raise_at=0.8 ... + random').
--       columns: dataset, game_id, team, policy,
--                sides_held (how many sides of that game carry the same label: more than 1 when a policy
--                plays itself, a mirror)
--   int_forced_raises   one row per raise the rules oblige, which no statistic of choices counts (bluffs,
--                       raise rates, the 'trut' measure): the trut d'office of trut-gatinaise (RULES.md: a
--                       side facing 2 petits must trut), i.e. a kind = 'raise' row made before play
--                       (trick_no null) in a hand whose special is 'trut_office'.
--       columns: dataset, game_id, hand_no, seq
--
-- Macros
--   side_points(side, p0, p1, p2)
--       the points of side `side` (0, 1, 2) given points_team0..2.
--   others_points(side, p0, p1, p2, sides)
--       the mean points per side of the other sides: (p0 + p1 + p2 - own) / (sides - 1), p2 counting
--       0 when null. With 2 sides it is the other team's points, as a double.
--   seat_policy(policy, player, seat)
--       the label of the policy a seat played: its `policy` (a simulated seat's bot, e.g. 'threshold
--       raise_at=0.7 call_at=0.5 ...', or an imported game's PolicyN tag), else (a hand-written game's seat
--       without a PolicyN tag) its `player` name, as player_results names it, else 'seat' and its number.
--       Every statistic with a `policy` column labels seats with it.
--   wilson_low(k, n), wilson_high(k, n): in sql/intervals.sql, created with this file.

create or replace view stg_games as
select
    dataset,
    game_id::bigint as game_id,
    variant::varchar as variant,
    players::bigint as players,
    options::varchar as options,
    seed::bigint as seed,
    first_dealer::bigint as first_dealer,
    hands::bigint as hands,
    complete::boolean as complete,
    winner_team::bigint as winner_team,
    score_team0::bigint as score_team0,
    score_team1::bigint as score_team1,
    source::varchar as source,
    sides::bigint as sides,
    score_team2::bigint as score_team2,
    unit::varchar as unit,
    match_no::bigint as match_no,
    match_winner_team::bigint as match_winner_team,
    tags::varchar as tags
from src_games;

create or replace view stg_hands as
select
    dataset,
    game_id::bigint as game_id,
    hand_no::bigint as hand_no,
    dealer::bigint as dealer,
    eldest::bigint as eldest,
    eldest_team::bigint as eldest_team,
    cards_dealt::bigint as cards_dealt,
    score_before_team0::bigint as score_before_team0,
    score_before_team1::bigint as score_before_team1,
    stake::bigint as stake,
    ended_by::varchar as ended_by,
    winner_team::bigint as winner_team,
    points_team0::bigint as points_team0,
    points_team1::bigint as points_team1,
    tricks_played::bigint as tricks_played,
    trick1_winner::bigint as trick1_winner,
    trick2_winner::bigint as trick2_winner,
    trick3_winner::bigint as trick3_winner,
    tie_rule::varchar as tie_rule,
    void::boolean as void,
    points_team2::bigint as points_team2,
    score_before_team2::bigint as score_before_team2,
    special::varchar as special,
    redeals::bigint as redeals,
    petits_team0::bigint as petits_team0,
    petits_team1::bigint as petits_team1,
    petits_team2::bigint as petits_team2,
    longs_team0::bigint as longs_team0,
    longs_team1::bigint as longs_team1,
    longs_team2::bigint as longs_team2,
    petits_after_team0::bigint as petits_after_team0,
    petits_after_team1::bigint as petits_after_team1,
    petits_after_team2::bigint as petits_after_team2,
    longs_after_team0::bigint as longs_after_team0,
    longs_after_team1::bigint as longs_after_team1,
    longs_after_team2::bigint as longs_after_team2,
    trut_seat::bigint as trut_seat,
    envit_stake::bigint as envit_stake,
    envit_winner::bigint as envit_winner,
    envit_points::bigint as envit_points,
    envit_ended_by::varchar as envit_ended_by,
    cames_after_team0::bigint as cames_after_team0,
    cames_after_team1::bigint as cames_after_team1
from src_hands;

create or replace view stg_seats as
select
    dataset,
    game_id::bigint as game_id,
    hand_no::bigint as hand_no,
    seat::bigint as seat,
    team::bigint as team,
    policy::varchar as policy,
    cards::varchar as cards,
    strength::double as strength,
    strength_pct::double as strength_pct,
    signal::varchar as signal,
    envit_value::bigint as envit_value,
    player::varchar as player
from src_seats;

create or replace view stg_events as
select
    dataset,
    game_id::bigint as game_id,
    hand_no::bigint as hand_no,
    seq::bigint as seq,
    seat::bigint as seat,
    team::bigint as team,
    verb::varchar as verb,
    arg::varchar as arg,
    kind::varchar as kind,
    answers::boolean as answers,
    could_raise::boolean as could_raise,
    trick_no::bigint as trick_no,
    stake_before::bigint as stake_before,
    stake_after::bigint as stake_after,
    to_play::bigint as to_play,
    envit_step::boolean as envit_step,
    raise_seq::bigint as raise_seq,
    raise_stake::bigint as raise_stake,
    outcome_answers::bigint as outcome_answers,
    outcome_folded::boolean as outcome_folded,
    outcome_accepted::boolean as outcome_accepted,
    outcome_raised::boolean as outcome_raised,
    seat_strength_pct::double as seat_strength_pct
from src_events;

create or replace macro side_points(side, p0, p1, p2) as
    case side when 0 then p0 when 1 then p1 when 2 then p2 end;

create or replace macro others_points(side, p0, p1, p2, sides) as
    (p0 + p1 + coalesce(p2, 0) - side_points(side, p0, p1, p2))::double / (sides - 1);

create or replace view int_envit_steps as
with

ladder_rows as (
    select
        dataset,
        game_id,
        hand_no,
        seq,
        seat,
        team,
        verb,
        verb in ('envit', 'torne', 'falta', 'envit-falta') as is_call
    from stg_events
    where envit_step  -- the writer's fact: exactly this view's rows, so the window below sees no other
),

sequenced as (
    select
        *,
        lag(verb) over hand_order as previous_verb,
        lag(seq) over hand_order as previous_seq,
        coalesce(lag(is_call) over hand_order, false) as answers_call
    from ladder_rows
    window hand_order as (partition by dataset, game_id, hand_no order by seq)
)

select
    dataset,
    game_id,
    hand_no,
    seq,
    seat,
    team,
    verb,
    is_call,
    answers_call,
    case when answers_call then previous_verb end as answered_call,
    case when answers_call then previous_seq end as answered_seq
from sequenced
where is_call or answers_call;

create or replace view int_raise_answers as
select *
from stg_events
where answers and not envit_step;

create or replace view int_answers_to_raises as
select dataset, game_id, hand_no, raise_seq, raise_stake, seq, seat, team, verb, kind, seat_strength_pct
from stg_events
where raise_seq is not null;

create or replace view int_raise_outcomes as
select
    dataset,
    game_id,
    hand_no,
    seq,
    outcome_folded as all_folded,
    outcome_accepted as accepted,
    outcome_raised as raised,
    outcome_answers as answers
from stg_events
where outcome_answers > 0;

create or replace view int_forced_raises as
select events.dataset, events.game_id, events.hand_no, events.seq
from stg_events as events
inner join stg_hands as hands using (dataset, game_id, hand_no)
where events.kind = 'raise' and events.trick_no is null and hands.special = 'trut_office';

create or replace macro seat_policy(policy, player, seat) as
    coalesce(policy, player, 'seat' || seat);

create or replace view int_seat_policies as
select dataset, game_id, seat, team, seat_policy(policy, player, seat) as policy
from stg_seats
where hand_no = 1;

create or replace view int_game_policies as
select dataset, game_id, list(policy order by seat) as seat_policies
from int_seat_policies
group by dataset, game_id;

create or replace view int_side_policies as
with

first_hand_seats as (
    select dataset, game_id, team, policy as label, min(seat) as first_seat
    from int_seat_policies
    group by dataset, game_id, team, label
),

-- The labels in the order of their first seat, by a list sorted after it is gathered: an ordered aggregate
-- (string_agg ... order by) cannot spill to disk, and over 100 M hands it outgrew the statistics' memory limit.
sides as (
    select
        dataset,
        game_id,
        team,
        array_to_string(
            list_transform(list_sort(list({'first_seat': first_seat, 'label': label})), lambda seat: seat.label),
            ' + '
        ) as policy
    from first_hand_seats
    group by dataset, game_id, team
),

-- The sides of a game that carry one label, counted by an aggregate (a window over every side of every game
-- did not spill either), their teams unnested again.
labels as (
    select dataset, game_id, policy, list(team) as teams, count(*) as sides_held
    from sides
    group by dataset, game_id, policy
)

select dataset, game_id, unnest(teams) as team, policy, sides_held
from labels;
