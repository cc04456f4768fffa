-- raise_rates, by hand: every action of a seat that could raise (Catalan: no envit, no forced raise, no
-- redeal), by the seat's policy, whether it answered a raise, the stake before it and the trick.
with chances as (
    select game_id, seat, case when answers then 'accept_and_raise' else 'raise' end as decision,
        stake_before as stake, trick_no, kind = 'raise' as raised
    from events
    where could_raise and answers is not null
),
policies as (select game_id, seat, policy from seats where hand_no = 1),
counts as (
    select variant, players, policy, decision, stake, trick_no, count(*) as n, count(*) filter (where raised) as k
    from chances join games using (game_id) left join policies using (game_id, seat)
    group by all
)
select variant, players, policy, decision, stake, trick_no, n, k, k / n, wl(k, n), wh(k, n) from counts
