-- variant_comparison, by hand: the headline figures of the other statistics, each group's in one row.
with g as (
    select variant, players, max(sides) as sides, min(unit) as unit, count(*) filter (where complete) as games
    from games group by all
),
p as (
    select variant, players, count(distinct policy) as policies
    from seats join games using (game_id) where hand_no = 1 group by all
),
h as (
    select variant, players, count(*) as hands, count(*) filter (where complete) as complete_hands,
        count(*) filter (where trick1_winner >= 0) as fth,
        count(*) filter (where trick1_winner >= 0 and h.winner_team = trick1_winner) as wf,
        count(*) filter (where trick1_winner >= 0 and h.winner_team <> trick1_winner) as wo,
        count(h.winner_team) as decided, count(*) filter (where h.winner_team = eldest_team) as ew,
        count(trick1_winner) + count(trick2_winner) + count(trick3_winner) as tricks,
        count(*) filter (where trick1_winner = -1) + count(*) filter (where trick2_winner = -1)
        + count(*) filter (where trick3_winner = -1) as tied
    from hands h join games using (game_id) group by all
),
ladder as (
    select game_id, hand_no, seq, seat, verb, kind, answers,
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
f as (
    select variant, players, count(*) as facing, count(*) filter (where verb = 'fold') as folds
    from ladder join games using (game_id) where answers and faced is not null group by all
),
b as (
    select variant, players, count(*) as raises, count(*) filter (where strength_pct < 0.33) as bluffs,
        count(*) filter (where strength_pct < 0.33 and all_folded) as bf
    from ladder r join seats using (game_id, hand_no, seat) left join outcomes using (game_id, hand_no, seq)
    join games using (game_id)
    where kind = 'raise' and strength_pct is not null group by all
)
select variant, players, sides, unit, policies, games, hands, complete_hands / games, fth, wf / fth, wl(wf, fth),
    wh(wf, fth), wf / fth - wo / fth, raises, bluffs, bluffs / raises, wl(bluffs, raises), wh(bluffs, raises), bf,
    bf / bluffs, wl(bf, bluffs), wh(bf, bluffs), facing, folds, folds / facing, wl(folds, facing), wh(folds, facing),
    decided, ew, ew / decided, wl(ew, decided), wh(ew, decided), ew / decided - 1.0 / sides, tricks, tied,
    tied / tricks, wl(tied, tricks), wh(tied, tricks)
from g join p using (variant, players) join h using (variant, players) join f using (variant, players)
join b using (variant, players)
