-- staging.sql: the four tables of one or several datasets as typed views, and the Wilson macros.
--
-- Grain
--   stg_games   one row per game    (dataset, game_id)
--   stg_hands   one row per hand    (dataset, game_id, hand_no)
--   stg_seats   one row per seat and hand (dataset, game_id, hand_no, seat)
--   stg_events  one row per recorded action (dataset, game_id, hand_no, seq)
--
-- The views only name and type the Parquet columns (docs/data.md says what each means), with one
-- addition: `dataset`, the folder the row was read from. game_id is unique only within one dataset,
-- so every join between tables must include `dataset` when several folders are read together.
-- Integer columns are widened to bigint: arithmetic on them cannot overflow, and every integer a
-- statistic returns is a 64-bit integer (polars Int64).
--
-- Parameters (DuckDB variables, set by the caller before the views are read)
--   games_files, hands_files, seats_files, events_files
--       list of Parquet globs of that table, one per dataset folder, e.g.
--       ['runs/a/hands/*.parquet', 'runs/b/hands/*.parquet'] (no default: required).
--
-- Macros
--   wilson_low(k, n), wilson_high(k, n)
--       the 95% Wilson score interval (z = 1.959964) of k successes in n trials; NULL when n = 0
--       or n is NULL. Clamped to [0, 1] and to contain k / n, against rounding (at k = n the formula
--       gives 0.9999999999999999).

create or replace view stg_games as
select
    parse_dirpath(parse_dirpath(filename)) as dataset,
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
    source::varchar as source
from read_parquet(getvariable('games_files'), filename = true);

create or replace view stg_hands as
select
    parse_dirpath(parse_dirpath(filename)) as dataset,
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
    tie_rule::varchar as tie_rule
from read_parquet(getvariable('hands_files'), filename = true);

create or replace view stg_seats as
select
    parse_dirpath(parse_dirpath(filename)) as dataset,
    game_id::bigint as game_id,
    hand_no::bigint as hand_no,
    seat::bigint as seat,
    team::bigint as team,
    policy::varchar as policy,
    cards::varchar as cards,
    strength::double as strength,
    strength_pct::double as strength_pct,
    signal::varchar as signal
from read_parquet(getvariable('seats_files'), filename = true);

create or replace view stg_events as
select
    parse_dirpath(parse_dirpath(filename)) as dataset,
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
    stake_after::bigint as stake_after
from read_parquet(getvariable('events_files'), filename = true);

create or replace macro wilson_low(k, n) as
    case
        when n > 0 then least(
            k::double / n,
            greatest(
                0.0,
                (
                    k::double / n
                    + 1.959964 ** 2 / (2.0 * n)
                    - 1.959964 * sqrt((k::double / n) * (1 - k::double / n) / n + 1.959964 ** 2 / (4.0 * n * n))
                ) / (1 + 1.959964 ** 2 / n)
            )
        )
    end;

create or replace macro wilson_high(k, n) as
    case
        when n > 0 then greatest(
            k::double / n,
            least(
                1.0,
                (
                    k::double / n
                    + 1.959964 ** 2 / (2.0 * n)
                    + 1.959964 * sqrt((k::double / n) * (1 - k::double / n) / n + 1.959964 ** 2 / (4.0 * n * n))
                ) / (1 + 1.959964 ** 2 / n)
            )
        )
    end;
