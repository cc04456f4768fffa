-- first_trick_value, by hand: hands whose first trick was won, grouped by the game's variant and players.
select variant, players, count(*) as hands,
    count(*) filter (where h.winner_team = trick1_winner) / count(*) as p,
    wl(count(*) filter (where h.winner_team = trick1_winner), count(*)), wh(count(*) filter (where h.winner_team = trick1_winner), count(*)),
    count(*) filter (where h.winner_team <> trick1_winner) / count(*) as q,
    wl(count(*) filter (where h.winner_team <> trick1_winner), count(*)), wh(count(*) filter (where h.winner_team <> trick1_winner), count(*)),
    p - q,
    avg(case trick1_winner when 0 then points_team0 else points_team1 end) as a,
    avg(case trick1_winner when 0 then points_team1 else points_team0 end) as b, a - b
from hands h join games g using (game_id)
where trick1_winner >= 0
group by all
