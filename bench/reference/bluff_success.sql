-- bluff_success, by hand: each raise by a seat of known strength, its answers (the rows of the hand after it up
-- to the next raise that answer it), the hand's result. Catalan has no forced raise and no envit.
with ladder as (
    select game_id, hand_no, seq, seat, team, verb, kind, answers, stake_after,
        last_value(case when kind = 'raise' then seq end ignore nulls) over (
            partition by game_id, hand_no order by seq rows between unbounded preceding and 1 preceding
        ) as faced
    from events
    where kind = 'raise' or answers
),
outcomes as (
    select game_id, hand_no, faced as seq, bool_and(verb = 'fold') as all_folded
    from ladder where answers and faced is not null group by all
),
raises as (
    select variant, players, s.policy, r.stake_after as stake, strength_pct < 0.33 as bluff, o.all_folded,
        h.winner_team = r.team as won,
        case r.team when 0 then points_team0 - points_team1 else points_team1 - points_team0 end as net
    from ladder r
    join seats s using (game_id, hand_no, seat)
    left join outcomes o using (game_id, hand_no, seq)
    join hands h using (game_id, hand_no)
    join games g using (game_id)
    where r.kind = 'raise' and strength_pct is not null
),
counts as (
    select variant, players, policy, stake, count(*) as n, count(*) filter (where bluff) as b,
        count(*) filter (where bluff and all_folded) as f, count(*) filter (where bluff and not all_folded) as c,
        count(*) filter (where bluff and not all_folded and won) as w, avg(net) filter (where bluff) as net
    from raises group by all
)
select variant, players, policy, stake, n, b, b / n, wl(b, n), wh(b, n), f, f / nullif(b, 0), wl(f, b), wh(f, b),
    c, w, w / nullif(c, 0), wl(w, c), wh(w, c), net
from counts
