-- player_results, by hand: each seat of each hand by its policy (simulated seats have no player name), with
-- its raises and its answers to raises in the hand; results counted once per side (a policy on both sides of a
-- game is a mirror).
with ladder as (
    select game_id, hand_no, seat, kind, verb, answers,
        last_value(case when kind = 'raise' then seq end ignore nulls) over (
            partition by game_id, hand_no order by seq rows between unbounded preceding and 1 preceding
        ) as faced
    from events
    where kind = 'raise' or answers
),
acts as (
    select game_id, hand_no, seat, count(*) filter (where kind = 'raise') as raises,
        count(*) filter (where answers and faced is not null) as facing,
        count(*) filter (where answers and faced is not null and verb = 'fold') as folds
    from ladder group by all
),
mirrors as (
    select game_id, policy, count(distinct team) > 1 as mirror from seats where hand_no = 1 group by all
),
seat_hands as (
    select variant, players, s.policy, m.mirror, s.game_id, s.hand_no, s.team,
        s.policy = 'random' or starts_with(s.policy, 'random ') as random_bot,
        h.winner_team is not null as decided, s.team = h.winner_team as won,
        case when h.winner_team is not null then
            case s.team when 0 then points_team0 - points_team1 else points_team1 - points_team0 end end as net,
        coalesce(a.raises, 0) as raises, coalesce(a.facing, 0) as facing, coalesce(a.folds, 0) as folds
    from seats s join hands h using (game_id, hand_no) join games g using (game_id)
    join mirrors m using (game_id, policy) left join acts a using (game_id, hand_no, seat)
),
per_seat as (
    select variant, players, policy, mirror, count(*) as n, count(*) filter (where random_bot) as r,
        sum(raises) as raises, sum(facing) as facing, sum(folds) as folds
    from seat_hands group by all
),
per_side as (
    select variant, players, policy, mirror, count(*) filter (where decided) as d, count(*) filter (where won) as k,
        avg(net) as net
    from (select distinct game_id, hand_no, team, variant, players, policy, mirror, decided, won, net from seat_hands)
    group by all
)
select variant, players, policy, mirror, n, r, d, k,
    case when d > 0 and not mirror then k / d end, case when not mirror then wl(k, d) end,
    case when not mirror then wh(k, d) end, case when not mirror then net end,
    raises, raises / n, facing, folds, case when facing > 0 then folds / facing end
from per_seat join per_side using (variant, players, policy, mirror)
