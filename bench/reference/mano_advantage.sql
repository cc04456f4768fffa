-- mano_advantage, by hand: decided hands, the eldest's team against the other.
select variant, players, count(*) as n, count(*) filter (where h.winner_team = eldest_team) as k, k / n, wl(k, n), wh(k, n),
    avg(case eldest_team when 0 then points_team0 else points_team1 end) as a,
    avg(case eldest_team when 0 then points_team1 else points_team0 end) as b, a - b
from hands h join games g using (game_id)
where h.winner_team is not null
group by all
