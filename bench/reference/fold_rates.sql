-- fold_rates, by hand: each answer to a raise (the rows with raise_seq, the raise each faces, which the writer
-- records; Catalan has no envit), that raise's stake, the answering seat's policy (its game's) and strength decile
-- (seat_strength_pct, its strength_pct in the hand).
with policies as (select game_id, seat, policy from seats where hand_no = 1),
facing as (
    select variant, players, policy, raise_stake as stake,
        case when seat_strength_pct is not null then least(10, floor(seat_strength_pct * 10)::bigint + 1) end as decile,
        verb = 'fold' as folded
    from events join policies using (game_id, seat) join games using (game_id)
    where raise_seq is not null
),
counts as (
    select variant, players, policy, stake, decile, count(*) as n, count(*) filter (where folded) as k
    from facing group by grouping sets ((variant, players, policy, stake, decile), (variant, players, policy, stake))
)
select variant, players, policy, stake, decile, n, k, k / n, wl(k, n), wh(k, n) from counts
