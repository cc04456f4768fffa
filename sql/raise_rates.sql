-- raise_rates: how often a seat raises when it may.
--
-- Grain: one row per (variant, players, policy, decision, stake, trick_no); only combinations that occur.
-- policy = the deciding seat's (int_game_policies in sql/staging.sql): two bots' decisions are never pooled.
--   decision 'raise'             a seat's own move (answers = false) where a raise was legal
--                                (could_raise = true)
--   decision 'accept_and_raise'  an answer to a pending raise (answers = true) where raising back
--                                was legal (could_raise = true)
-- Population: every events row meeting one of those two conditions, except the envit's rows
-- (envit_step, the rows of int_envit_steps: a side bet, not a step of the raise ladder), french redeal requests (verb
-- 'redeal': the eldest still makes his own move after it) and the raises the rules oblige
-- (int_forced_raises: the trut d'office, which is no choice).
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the deciding seat's policy label
--   decision                   'raise' or 'accept_and_raise'
--   stake                      the event's stake_before (the stake in force at the decision)
--   trick_no                   the event's trick_no; NULL for decisions before play starts
--   chances                    events meeting the decision's condition (the sample size)
--   count                      those with kind = 'raise'
--   rate                       count / chances
--   ci_low, ci_high            its 95% Wilson interval
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy, decision,
-- stake, trick_no) of a dataset, every column a count (chances, count), so that datasets add up. The finish adds
-- them up and divides.

with

games as (
    select dataset, game_id, variant, players, game_policies.seat_policies
    from stg_games
    left join int_game_policies as game_policies using (dataset, game_id)
),

chances as (
    select
        games.variant,
        games.players,
        games.seat_policies[events.seat + 1] as policy,
        case when events.answers then 'accept_and_raise' else 'raise' end as decision,
        events.stake_before as stake,
        events.trick_no,
        events.kind = 'raise' as raised
    from stg_events as events
    inner join games using (dataset, game_id)
    anti join int_forced_raises as forced using (dataset, game_id, hand_no, seq)
    where events.could_raise and events.answers is not null and events.verb <> 'redeal' and not events.envit_step
),

tally as (
    select
        variant,
        players,
        policy,
        decision,
        stake,
        trick_no,
        count(*) as chances,
        count(*) filter (where raised) as count
    from chances
    group by all
)

select * from tally
-- finish
with

per_group as (
    select * replace (sum(chances)::bigint as chances, sum(count)::bigint as count)
    from tally
    group by all
)

select
    *,
    count / chances as rate,
    wilson_low(count, chances) as ci_low,
    wilson_high(count, chances) as ci_high
from per_group
order by variant, players, policy nulls last, decision, stake nulls last, trick_no nulls last
