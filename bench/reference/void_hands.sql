-- void_hands, by hand: hands nobody scored.
select variant, players, count(*) as n, count(*) filter (where void) as k, k / n, wl(k, n), wh(k, n)
from hands h join games g using (game_id)
group by all
