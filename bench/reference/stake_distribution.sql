-- stake_distribution, by hand: hands per final stake, their share of the group's hands and mean points.
with per_stake as (
    select variant, players, stake, count(*) as n, sum(points_team0 + points_team1) as points
    from hands h join games g using (game_id)
    group by all
),
totals as (
    select *, sum(n) over (partition by variant, players) as total,
        sum(points) over (partition by variant, players) / total as per_hand
    from per_stake
)
select variant, players, stake, n, n / total, wl(n, total), wh(n, total), points / n, per_hand from totals
