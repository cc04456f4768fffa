-- french: what French Truc adds: new cards on request (the redeal), raises of any size, and the
-- reste (a raise to the points the raiser still needs to win the game).
--
-- Grain: one row per (variant, players, policy, measure, size); size is NULL except for 'raise_size'; only
-- combinations that occur. policy (seat_policy in sql/staging.sql) is that of the seat whose move the
-- row's sample counts, so two bots are never pooled: the raiser for the raises and restes (how its
-- restes were answered and fared), the requester for 'redeal_refused' (how its requests were answered),
-- and for 'redeal', whose sample is hands, the eldest's (only the eldest may ask for new cards).
-- Population: hands with redeals not null (the french column; every other variant leaves it null and
-- gets no rows). A raise is an events row with verb 'raise' (kind 'raise'), its arg the number raised
-- to or 'reste'. Its answers are the rows of int_answers_to_raises facing it (the latest raise before
-- them in the hand), summed up in int_raise_outcomes; a raise made in answer answers the raise before it.
--
--   measure 'redeal'           n = hands (policy: the eldest's); count = hands with redeals > 0 (new cards
--                              dealt at least once).
--   measure 'redeal_refused'   n = requests for new cards (verb 'redeal'); count = refusals (verb
--                              'refuse': each refuses the latest request before it and ends it).
--   measure 'raise_size'       size = the raise's stake_after minus the stake it raises: for a raise
--                              made in answer (answers = true) the proposed stake of the raise it
--                              answers (which it accepts first), otherwise its stake_before.
--                              n = raises to a number (arg not 'reste'); count = those of that size.
--   measure 'reste'            n = raises; count = raises with arg 'reste'.
--   measure 'reste_accepted', 'reste_folded', 'reste_raised'
--                              n = reste raises; count = those with an answer 'accept' or a 'play'
--                              that accepts / answered only by folds / with a raise made in answer
--                              (e.g. "le mien", a reste back). A reste raise without answers is none.
--   measure 'reste_won'        n = reste raises with an answer that is not a fold (played on);
--                              count = those whose hand was won by the raiser's team (winner_team).
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the policy label of the seat the sample counts (above)
--   measure, size              see above
--   n                          the sample size
--   count                      the successes
--   rate                       count / n (NULL when n = 0)
--   ci_low, ci_high            its 95% Wilson interval
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy,
-- measure, size) of a dataset that occurs in it, every column a count, so that datasets add up: n and count.
-- For 'raise_size' both hold the raises of that size: the finish takes n, the policy's raises to a number,
-- as the sum of count over its sizes.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

french_hands as (
    select
        hands.dataset,
        hands.game_id,
        hands.hand_no,
        games.variant,
        games.players,
        seat_policy(eldest_seats.policy, eldest_seats.player, hands.eldest) as eldest_policy,
        hands.redeals,
        hands.winner_team
    from stg_hands as hands
    inner join games using (dataset, game_id)
    left join stg_seats as eldest_seats
        on eldest_seats.dataset = hands.dataset
        and eldest_seats.game_id = hands.game_id
        and eldest_seats.hand_no = hands.hand_no
        and eldest_seats.seat = hands.eldest
    where hands.redeals is not null
),

hand_events as (
    select
        french_hands.variant,
        french_hands.players,
        french_hands.winner_team,
        seat_policies.policy,
        events.*
    from stg_events as events
    inner join french_hands using (dataset, game_id, hand_no)
    left join int_seat_policies as seat_policies using (dataset, game_id, seat)
),

redeal_rate as (
    select
        variant,
        players,
        eldest_policy as policy,
        'redeal' as measure,
        null::bigint as size,
        count(*) as n,
        count(*) filter (where redeals > 0) as count
    from french_hands
    group by all
),

requests as (
    select
        variant,
        players,
        verb,
        last_value(case when verb = 'redeal' then policy end ignore nulls) over (
            partition by dataset, game_id, hand_no order by seq
        ) as requester_policy
    from hand_events
    where verb in ('redeal', 'refuse')
),

redeal_refused as (
    select
        variant,
        players,
        requester_policy as policy,
        'redeal_refused' as measure,
        null::bigint as size,
        count(*) filter (where verb = 'redeal') as n,
        count(*) filter (where verb = 'refuse') as count
    from requests
    group by all
),

raises as (
    select
        variant,
        players,
        policy,
        dataset,
        game_id,
        hand_no,
        seq,
        team,
        winner_team,
        arg = 'reste' as is_reste,
        stake_after - case
            when answers then lag(stake_after) over (partition by dataset, game_id, hand_no order by seq)
            else stake_before
        end as size
    from hand_events
    where verb = 'raise'
),

raise_sizes as (
    select
        variant,
        players,
        policy,
        'raise_size' as measure,
        size,
        count(*) as n,
        count(*) as count
    from raises
    where not is_reste
    group by all
),

restes as (
    select
        raises.variant,
        raises.players,
        raises.policy,
        coalesce(raise_outcomes.all_folded, false) as folded,
        coalesce(raise_outcomes.accepted, false) as accepted,
        coalesce(raise_outcomes.raised, false) as raised,
        coalesce(not raise_outcomes.all_folded, false) as played_on,
        raises.winner_team = raises.team as raiser_won
    from raises
    left join int_raise_outcomes as raise_outcomes using (dataset, game_id, hand_no, seq)
    where raises.is_reste
),

reste_frequency as (
    select
        variant,
        players,
        policy,
        'reste' as measure,
        null::bigint as size,
        count(*) as n,
        count(*) filter (where is_reste) as count
    from raises
    group by all
),

reste_outcomes as (
    select
        restes.variant,
        restes.players,
        restes.policy,
        outcomes.measure,
        null::bigint as size,
        count(*) filter (where outcomes.measure <> 'reste_won' or restes.played_on) as n,
        count(*) filter (
            where (outcomes.measure = 'reste_accepted' and restes.accepted)
            or (outcomes.measure = 'reste_folded' and restes.folded)
            or (outcomes.measure = 'reste_raised' and restes.raised)
            or (outcomes.measure = 'reste_won' and restes.played_on and restes.raiser_won)
        ) as count
    from restes
    cross join (
        select unnest(['reste_accepted', 'reste_folded', 'reste_raised', 'reste_won']) as measure
    ) as outcomes
    group by all
),

measures as (
    select * from redeal_rate
    union all
    select * from redeal_refused
    union all
    select * from raise_sizes
    union all
    select * from reste_frequency
    union all
    select * from reste_outcomes
)

select * from measures
-- finish
with

summed as (
    select * replace (sum(n)::bigint as n, sum(count)::bigint as count)
    from tally
    group by all
),

measures as (
    select * replace (
        case
            when measure = 'raise_size' then (sum(count) over (partition by variant, players, policy, measure))::bigint
            else n
        end as n
    )
    from summed
)

select
    *,
    count / nullif(n, 0) as rate,
    wilson_low(count, n) as ci_low,
    wilson_high(count, n) as ci_high
from measures
order by variant, players, policy nulls last, measure, size nulls last
