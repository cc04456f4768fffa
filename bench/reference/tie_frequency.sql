-- tie_frequency, by hand: each trick's ties among the tricks played, and the hands a tie rule decided.
with counts as (
    select variant, players,
        count(trick1_winner) as n1, count(*) filter (where trick1_winner = -1) as t1,
        count(trick2_winner) as n2, count(*) filter (where trick2_winner = -1) as t2,
        count(trick3_winner) as n3, count(*) filter (where trick3_winner = -1) as t3,
        count(*) as n, count(tie_rule) as t
    from hands h join games g using (game_id)
    group by all
)
select variant, players, 'trick_tied', 1, n1, t1, t1 / n1, wl(t1, n1), wh(t1, n1) from counts
union all select variant, players, 'trick_tied', 2, n2, t2, t2 / n2, wl(t2, n2), wh(t2, n2) from counts
union all select variant, players, 'trick_tied', 3, n3, t3, t3 / n3, wl(t3, n3), wh(t3, n3) from counts
union all select variant, players, 'hand_by_tie_rule', null, n, t, t / n, wl(t, n), wh(t, n) from counts
