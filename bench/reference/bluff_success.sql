-- bluff_success, by hand: each raise by a seat of known strength (seat_strength_pct), whether every answer folded
-- (outcome_folded, null without answers: the writer records each raise's outcome), the hand's result. Catalan has
-- no forced raise and no envit.
with policies as (select game_id, seat, policy from seats where hand_no = 1),
raises as (
    select variant, players, policy, stake_after as stake, seat_strength_pct < 0.33 as bluff, outcome_folded as folded,
        h.winner_team = r.team as won,
        case r.team when 0 then points_team0 - points_team1 else points_team1 - points_team0 end as net
    from events r
    join policies using (game_id, seat)
    join hands h using (game_id, hand_no)
    join games using (game_id)
    where kind = 'raise' and seat_strength_pct is not null
),
counts as (
    select variant, players, policy, stake, count(*) as n, count(*) filter (where bluff) as b,
        count(*) filter (where bluff and folded) as f, count(*) filter (where bluff and not folded) as c,
        count(*) filter (where bluff and not folded and won) as w, avg(net) filter (where bluff) as net
    from raises group by all
)
select variant, players, policy, stake, n, b, b / n, wl(b, n), wh(b, n), f, f / nullif(b, 0), wl(f, b), wh(f, b),
    c, w, w / nullif(c, 0), wl(w, c), wh(w, c), net
from counts
