-- intervals.sql: the macros of the 95% Wilson score interval, with which every statistic's finish computes its
-- intervals. They are created with the staging (sql/staging.sql), and alone where a statistic is read from its
-- tallies, whose finish reads no view of the staging (pipeline.stats.staged).
--
-- Macros
--   wilson_low(k, n), wilson_high(k, n)
--       the 95% Wilson score interval (z = 1.959964) of k successes in n trials; NULL when n = 0
--       or n is NULL. Clamped to [0, 1] and to contain k / n, against rounding (at k = n the formula
--       gives 0.9999999999999999).

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
