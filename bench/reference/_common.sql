-- _common.sql: what every reference query of bench/stats_speed.py reads first (run before it, in its process).
-- The four tables of the dataset `getvariable('data')` by glob, untyped (as written), and the 95% Wilson interval.
create view games as select * from read_parquet(getvariable('data') || '/games/*.parquet');
create view hands as select * from read_parquet(getvariable('data') || '/hands/*.parquet');
create view seats as select * from read_parquet(getvariable('data') || '/seats/*.parquet');
create view events as select * from read_parquet(getvariable('data') || '/events/*.parquet');
create macro wl(k, n) as case when n > 0 then least(k / n, greatest(0.0,
    (k / n + 1.959964 ** 2 / (2.0 * n) - 1.959964 * sqrt((k / n) * (1 - k / n) / n + 1.959964 ** 2 / (4.0 * n * n)))
    / (1 + 1.959964 ** 2 / n))) end;
create macro wh(k, n) as case when n > 0 then greatest(k / n, least(1.0,
    (k / n + 1.959964 ** 2 / (2.0 * n) + 1.959964 * sqrt((k / n) * (1 - k / n) / n + 1.959964 ** 2 / (4.0 * n * n)))
    / (1 + 1.959964 ** 2 / n))) end;
