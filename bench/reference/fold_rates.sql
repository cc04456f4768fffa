-- fold_rates, by hand: each answer to a raise (answers = true; Catalan has no envit), the stake of the raise it
-- faces (the latest raise of the hand before it), the answering seat's policy and strength decile.
with ladder as (
    select game_id, hand_no, seq, seat, verb, kind, answers,
        last_value(case when kind = 'raise' then stake_after end ignore nulls) over (
            partition by game_id, hand_no order by seq rows between unbounded preceding and 1 preceding
        ) as stake
    from events
    where kind = 'raise' or answers
),
facing as (
    select variant, players, s.policy, stake,
        case when strength_pct is not null then least(10, floor(strength_pct * 10)::bigint + 1) end as decile,
        verb = 'fold' as folded
    from ladder a join seats s using (game_id, hand_no, seat) join games g using (game_id)
    where answers and stake is not null
),
counts as (
    select variant, players, policy, stake, decile, count(*) as n, count(*) filter (where folded) as k
    from facing group by grouping sets ((variant, players, policy, stake, decile), (variant, players, policy, stake))
)
select variant, players, policy, stake, decile, n, k, k / n, wl(k, n), wh(k, n) from counts
