-- tie_frequency: how often tricks are tied, and how often a tie rule decides the hand.
--
-- Grain: one row per (variant, players, measure, trick_no).
--   measure 'trick_tied'        trick_no 1, 2 and 3 (always all three rows; n may be 0)
--   measure 'hand_by_tie_rule'  trick_no NULL
-- Population: every hand, void hands included.
--
-- Columns
--   variant, players           the games' variant and player count
--   measure                    'trick_tied' or 'hand_by_tie_rule'
--   trick_no                   1..3 for 'trick_tied', NULL for 'hand_by_tie_rule'
--   n                          'trick_tied': tricks played (trickN_winner not null);
--                              'hand_by_tie_rule': hands
--   count                      'trick_tied': tied tricks (trickN_winner = -1);
--                              'hand_by_tie_rule': hands with tie_rule not null
--   rate                       count / n (NULL when n = 0)
--   ci_low, ci_high            its 95% Wilson interval (NULL when n = 0)
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, measure,
-- trick_no) of a dataset, the output's grain, every column a count (n, count), so that datasets add up. The
-- finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

all_hands as (
    select
        games.variant,
        games.players,
        hands.trick1_winner,
        hands.trick2_winner,
        hands.trick3_winner,
        hands.tie_rule
    from stg_hands as hands
    inner join games using (dataset, game_id)
),

tricks as (
    select
        all_hands.variant,
        all_hands.players,
        trick_numbers.trick_no,
        case trick_numbers.trick_no
            when 1 then all_hands.trick1_winner
            when 2 then all_hands.trick2_winner
            else all_hands.trick3_winner
        end as trick_winner
    from all_hands
    cross join (select unnest([1, 2, 3]) as trick_no) as trick_numbers
),

trick_ties as (
    select
        variant,
        players,
        'trick_tied' as measure,
        trick_no,
        count(*) filter (where trick_winner is not null) as n,
        count(*) filter (where trick_winner = -1) as count
    from tricks
    group by all
),

hands_by_tie_rule as (
    select
        variant,
        players,
        'hand_by_tie_rule' as measure,
        null::bigint as trick_no,
        count(*) as n,
        count(*) filter (where tie_rule is not null) as count
    from all_hands
    group by all
),

tally as (
    select * from trick_ties
    union all
    select * from hands_by_tie_rule
)

select * from tally
-- finish
with

measures as (
    select * replace (sum(n)::bigint as n, sum(count)::bigint as count)
    from tally
    group by all
)

select
    *,
    count / nullif(n, 0) as rate,
    wilson_low(count, n) as ci_low,
    wilson_high(count, n) as ci_high
from measures
order by variant, players, measure, trick_no nulls last
