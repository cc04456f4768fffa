-- game_results, by hand: each side's policy (its seats' policy in the first hand) against the game's result.
with sides as (
    select game_id, team, string_agg(distinct policy, ' + ') as policy
    from seats where hand_no = 1 group by all
),
labelled as (
    select *, count(*) over (partition by game_id, policy) > 1 as mirror from sides
),
per_policy as (
    select variant, players, policy, mirror, count(*) as n, count(*) filter (where team = winner_team) as k,
        avg(case team when 0 then score_team0 - score_team1 else score_team1 - score_team0 end) as m,
        stddev_samp(case team when 0 then score_team0 - score_team1 else score_team1 - score_team0 end) as sd,
        min(unit) as unit
    from labelled join games using (game_id)
    where winner_team is not null
    group by all
)
select variant, players, policy, mirror, n, k,
    case when not mirror then k / n end, case when not mirror then wl(k, n) end, case when not mirror then wh(k, n) end,
    case when not mirror then m end, case when not mirror then m - 1.959964 * sd / sqrt(n) end,
    case when not mirror then m + 1.959964 * sd / sqrt(n) end, unit, null, null
from per_policy
