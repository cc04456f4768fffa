-- envit: the valencian side bet on the best suit holding: how often it is called, how each call is
-- answered, who wins it by the caller's envit value, envit bluffs, and the stones it brings.
--
-- Grain: one row per (variant, players, policy, measure, level); only combinations that occur.
-- policy (seat_policy in sql/staging.sql) is that of the seat whose move the row's sample counts: the
-- caller for the measures of calls (how its calls were answered, won, bluffed), so two bots are never
-- pooled; for 'call', whose sample is hands, each policy seated in the hand; NULL for 'stones', a
-- measure of the hand rather than of a seat's choice.
-- Population: hands with cames_after_team0 not null (the valencian scoring column; every other
-- variant leaves it null and gets no rows). Calls and answers are the rows of int_envit_steps (see
-- sql/staging.sql): a call is a row with verb envit, torne, falta or envit-falta; its answer is the
-- next envit-ladder row of the hand: accept, fold, or a higher call (a raise). A call with no answer
-- (a record that stops) is counted in n but is none of accepted, folded, raised. A seat's envit value
-- is seats.envit_value; the opening call is the hand's first call.
--
--   measure 'call'            level NULL. n = hands in which the policy held a seat; count = those in
--                             which a seat of the policy made a call.
--   measure 'accepted', 'folded', 'raised'
--                             level = the call's verb (the rung: envit, torne, falta, envit-falta).
--                             n = the policy's calls at that rung; count = those answered by accept /
--                             fold / a call.
--   measure 'caller_won'      level = band of the opening caller's envit value ('0-19', '20-25',
--                             '26-28', '29-30', '31-33'); policy = the opening caller's. n = hands whose
--                             envit was settled (envit_winner not null) and whose opening caller's value
--                             is known; count = those where envit_winner is the opening caller's team.
--   measure 'caller_won_accepted'
--                             the same over the envits settled by comparing values
--                             (envit_ended_by = 'accept').
--   measure 'bluff'           level = rung. n = the policy's calls at that rung by seats of known envit value;
--                             count = those with envit_value < $bluff_below.
--   measure 'bluff_folded'    level = rung. n = bluffs at that rung; count = bluffs answered by a fold
--                             (their success).
--   measure 'bluff_won'       level = rung. n = bluffs at that rung; count = bluffs whose hand's envit
--                             went to the bluffer's team (envit_winner).
--   measure 'stones'          level 'envit' or 'tricks'. n = hands; count = stones scored in those
--                             hands by the envit (envit_points, after the cap) or by the rest of the
--                             hand (points_team0 + points_team1 - envit_points); rate, ci_low, ci_high
--                             NULL; mean = count / n (stones per hand).
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the policy label of the seat the sample counts (above); NULL for 'stones'
--   measure                    see above
--   level                      see above (NULL for 'call')
--   n                          the sample size
--   count                      the successes (stones for 'stones')
--   rate                       count / n (NULL when n = 0, and for 'stones')
--   ci_low, ci_high            its 95% Wilson interval (NULL for 'stones')
--   mean                       'stones' only: stones per hand; NULL elsewhere
--
-- Parameters
--   $bluff_below   double in [0, 40], default 20: an envit call by a seat whose envit value is below it is a bluff
--                  (below 20 a seat holds no two cards of one suit: those are worth 20 plus two face
--                  values, at least 24, or 23 with the twos).
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy,
-- measure, level) of a dataset that occurs in it, every column a count or a sum, so that datasets add up: n
-- and count ('stones': hands and the sum of stones). The finish adds them up and computes rate, ci_low,
-- ci_high and mean.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

envit_hands as (
    select
        hands.dataset,
        hands.game_id,
        hands.hand_no,
        games.variant,
        games.players,
        hands.envit_winner,
        hands.envit_ended_by,
        coalesce(hands.envit_points, 0) as envit_stones,
        hands.points_team0 + hands.points_team1 - coalesce(hands.envit_points, 0) as trick_stones
    from stg_hands as hands
    inner join games using (dataset, game_id)
    where hands.cames_after_team0 is not null
),

calls as (
    select
        envit_hands.variant,
        envit_hands.players,
        steps.dataset,
        steps.game_id,
        steps.hand_no,
        steps.seq,
        steps.team,
        steps.verb as rung,
        seat_policy(seats.policy, seats.player, steps.seat) as policy,
        seats.envit_value,
        envit_hands.envit_winner
    from int_envit_steps as steps
    inner join envit_hands using (dataset, game_id, hand_no)
    left join stg_seats as seats using (dataset, game_id, hand_no, seat)
    where steps.is_call
),

answered_calls as (
    select
        calls.*,
        answers.verb as answer_verb,
        answers.is_call as answer_is_call
    from calls
    left join int_envit_steps as answers
        on calls.dataset = answers.dataset
        and calls.game_id = answers.game_id
        and calls.hand_no = answers.hand_no
        and calls.seq = answers.answered_seq
),

opening_calls as (
    select
        variant,
        players,
        dataset,
        game_id,
        hand_no,
        arg_min_null(team, seq) as caller_team,
        arg_min_null(policy, seq) as caller_policy,
        arg_min_null(envit_value, seq) as caller_value
    from calls
    group by variant, players, dataset, game_id, hand_no
),

settled as (
    select
        opening_calls.variant,
        opening_calls.players,
        opening_calls.caller_policy as policy,
        case
            when opening_calls.caller_value < 20 then '0-19'
            when opening_calls.caller_value <= 25 then '20-25'
            when opening_calls.caller_value <= 28 then '26-28'
            when opening_calls.caller_value <= 30 then '29-30'
            else '31-33'
        end as band,
        envit_hands.envit_winner = opening_calls.caller_team as caller_won,
        envit_hands.envit_ended_by = 'accept' as compared
    from opening_calls
    inner join envit_hands using (dataset, game_id, hand_no)
    where envit_hands.envit_winner is not null and opening_calls.caller_value is not null
),

seated_hands as (
    select distinct
        envit_hands.dataset,
        envit_hands.game_id,
        envit_hands.hand_no,
        envit_hands.variant,
        envit_hands.players,
        seat_policy(seats.policy, seats.player, seats.seat) as policy
    from envit_hands
    inner join stg_seats as seats using (dataset, game_id, hand_no)
),

called_hands as (
    select distinct dataset, game_id, hand_no, policy
    from calls
),

call_rate as (
    select
        seated_hands.variant,
        seated_hands.players,
        seated_hands.policy,
        'call' as measure,
        null::varchar as level,
        count(*) as n,
        count(called_hands.hand_no) as count
    from seated_hands
    left join called_hands using (dataset, game_id, hand_no, policy)
    group by all
),

answer_rates as (
    select
        answered_calls.variant,
        answered_calls.players,
        answered_calls.policy,
        outcomes.measure,
        answered_calls.rung as level,
        count(*) as n,
        count(*) filter (
            where (outcomes.measure = 'accepted' and answered_calls.answer_verb = 'accept')
            or (outcomes.measure = 'folded' and answered_calls.answer_verb = 'fold')
            or (outcomes.measure = 'raised' and answered_calls.answer_is_call)
        ) as count
    from answered_calls
    cross join (select unnest(['accepted', 'folded', 'raised']) as measure) as outcomes
    group by all
),

win_rates as (
    select
        variant,
        players,
        policy,
        'caller_won' as measure,
        band as level,
        count(*) as n,
        count(*) filter (where caller_won) as count
    from settled
    group by all
    union all
    select
        variant,
        players,
        policy,
        'caller_won_accepted' as measure,
        band as level,
        count(*) as n,
        count(*) filter (where caller_won) as count
    from settled
    where compared
    group by all
),

bluffs as (
    select
        variant,
        players,
        policy,
        rung,
        envit_value < $bluff_below as is_bluff,
        answer_verb = 'fold' as was_folded,
        envit_winner = team as bluffer_won
    from answered_calls
    where envit_value is not null
),

bluff_rates as (
    select
        variant,
        players,
        policy,
        'bluff' as measure,
        rung as level,
        count(*) as n,
        count(*) filter (where is_bluff) as count
    from bluffs
    group by all
    union all
    select
        variant,
        players,
        policy,
        'bluff_folded' as measure,
        rung as level,
        count(*) as n,
        count(*) filter (where was_folded) as count
    from bluffs
    where is_bluff
    group by all
    union all
    select
        variant,
        players,
        policy,
        'bluff_won' as measure,
        rung as level,
        count(*) as n,
        count(*) filter (where bluffer_won) as count
    from bluffs
    where is_bluff
    group by all
),

stones as (
    select
        envit_hands.variant,
        envit_hands.players,
        null::varchar as policy,
        'stones' as measure,
        sources.level,
        count(*) as n,
        sum(case sources.level when 'envit' then envit_hands.envit_stones else envit_hands.trick_stones end)::bigint
            as count
    from envit_hands
    cross join (select unnest(['envit', 'tricks']) as level) as sources
    group by all
),

measures as (
    select * from call_rate
    union all
    select * from answer_rates
    union all
    select * from win_rates
    union all
    select * from bluff_rates
    union all
    select * from stones
)

select * from measures
-- finish
with

summed as (
    select * replace (sum(n)::bigint as n, sum(count)::bigint as count)
    from tally
    group by all
)

select
    *,
    case when measure <> 'stones' then count / nullif(n, 0) end as rate,
    case when measure <> 'stones' then wilson_low(count, n) end as ci_low,
    case when measure <> 'stones' then wilson_high(count, n) end as ci_high,
    case when measure = 'stones' then count / nullif(n, 0) end as mean
from summed
order by variant, players, policy nulls last, measure, level nulls last
