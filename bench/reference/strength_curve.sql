-- strength_curve, by hand: each seat of a decided hand by its policy and strength decile, its team's result.
select variant, players, policy, least(10, floor(strength_pct * 10)::bigint + 1) as decile, count(*) as n,
    count(*) filter (where s.team = h.winner_team) as k, k / n, wl(k, n), wh(k, n),
    avg(case s.team when 0 then points_team0 - points_team1 else points_team1 - points_team0 end)
from seats s join hands h using (game_id, hand_no) join games g using (game_id)
where h.winner_team is not null and strength_pct is not null
group by all
