-- trut: the trut family's own play: how often a trut is made and folded to, truts out of turn, the
-- fortial and the trut d'office, holding ("à tenir") and singing (la chanson, chanter).
--
-- Grain: one row per (variant, players, policy, measure, level, trick_no); only combinations that occur.
-- policy (seat_policy in sql/staging.sql) is that of the seat whose move the row's sample counts, so two
-- bots are never pooled: the answerer for 'fold_by_position', the truter for 'timing', the seat of the
-- row for 'hold', 'sing' and 'chanson_cards'; for 'trut', whose sample is hands, each policy seated in
-- the hand; for the special hands, the deciding seat's (below), NULL when the hand has none.
-- Population: hands with petits_team0 not null (the trut family's column; every other variant leaves
-- it null and gets no rows). A trut is an events row with verb 'trut' (kind 'raise'). Its answers are
-- the rows of int_answers_to_raises facing it (the latest raise before them in the hand), in seq order:
-- the opponents answer one by one from the eldest, so the k-th answer is the k-th answerer's.
--
--   measure 'trut'             level NULL, trick_no NULL. n = hands in which a trut is a choice (special
--                              null, 'fortial' or 'fortial_both': a trut d'office must be made, and la
--                              chanson, à tenir, chanter and sec hands are played for a long without one)
--                              and the policy held a seat; count = those in which a seat of the policy
--                              made a trut.
--   measure 'fold_by_position' level = k ('1', '2', '3': the k-th answer to a trut), trick_no NULL.
--                              n = k-th answers; count = those that are folds.
--   measure 'timing'           level = when the trut was made, trick_no = the trick in progress (NULL
--                              for 'call'). n = truts with that trick_no; count = those with that level.
--                              The seat to play is the trut row's to_play (recorded by the engine; null
--                              outside trick play, exactly when trick_no is null):
--       'call'             to_play is null: made in a call before play (the fortial, a trut d'office);
--       'in_turn'          the truter was the seat to play (seat = to_play);
--       'out_after_card'   another seat was to play and the truter had already played his card in the
--                          trick (a play row of his with the same trick_no and a lower seq);
--       'out_before_card'  another seat was to play and the truter had not played in the trick yet.
--   measure = the hand's special (every value of hands.special: 'fortial', 'fortial_both',
--                              'trut_office', and those of the regional variants, e.g. 'chanson',
--                              'chanter', 'tenir', 'sec'): hands with that special; level, trick_no NULL:
--       'truted'           the hand has a trut or a hold row;
--       'passed'           ended_by = 'pass' (nobody truted or held: no play);
--       'folded'           ended_by = 'fold';
--       'decider_won'      winner_team is the deciding side: the team of the hand's first trut, pass
--                          or hold row (the side au fortial; the side that must trut, or that says
--                          whether it holds); n counts only the hands that have such a row;
--                          the row's seat is the deciding seat, whose policy keys the hand's rows;
--       'void'             a void hand (hands.void).
--                              n = such hands (for 'decider_won': with a deciding side); count = those
--                              meeting the level.
--   measure 'hold'             level, trick_no NULL. n = hold and pass rows of hands whose special is
--                              not 'fortial' or 'fortial_both' (at the fortial 'pass' means not to
--                              trut); count = the hold rows.
--   measure 'sing'             level, trick_no NULL. n = sing and nosing rows; count = sing rows.
--   measure 'chanson_cards'    level = N of the 'ask N' rows (its arg), trick_no NULL. n = ask rows;
--                              count = those asking N cards.
--
-- Columns
--   variant, players           the games' variant and player count
--   policy                     the policy label of the seat the sample counts (above)
--   measure, level, trick_no   see above
--   n                          the sample size
--   count                      the successes
--   rate                       count / n (NULL when n = 0)
--   ci_low, ci_high            its 95% Wilson interval
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players, policy, measure,
-- level, trick_no) of a dataset, every column a count (n, count), so that datasets add up. For 'timing' and
-- 'chanson_cards', whose n is the total over the levels, the tally's n is the level's own count (as count): the
-- finish adds the rows up and then sums n over the levels of each (variant, players, policy, measure, trick_no).

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

trut_hands as (
    select
        hands.dataset,
        hands.game_id,
        hands.hand_no,
        games.variant,
        games.players,
        hands.special,
        hands.ended_by,
        hands.winner_team,
        hands.void as is_void
    from stg_hands as hands
    inner join games using (dataset, game_id)
    where hands.petits_team0 is not null
),

hand_events as (
    select
        trut_hands.variant,
        trut_hands.players,
        seat_policies.policy,
        events.*
    from stg_events as events
    inner join trut_hands using (dataset, game_id, hand_no)
    left join int_seat_policies as seat_policies using (dataset, game_id, seat)
),

seated_hands as (
    select distinct
        trut_hands.dataset,
        trut_hands.game_id,
        trut_hands.hand_no,
        trut_hands.variant,
        trut_hands.players,
        seat_policies.policy
    from trut_hands
    inner join int_seat_policies as seat_policies using (dataset, game_id)
    where trut_hands.special is null or trut_hands.special in ('fortial', 'fortial_both')
),

truts as (
    select * from hand_events where verb = 'trut'
),

trut_rate as (
    select
        seated_hands.variant,
        seated_hands.players,
        seated_hands.policy,
        'trut' as measure,
        null::varchar as level,
        null::bigint as trick_no,
        count(*) as n,
        count(truted.hand_no) as count
    from seated_hands
    left join (select distinct dataset, game_id, hand_no, policy from truts) as truted
        using (dataset, game_id, hand_no, policy)
    group by all
),

answers_to_truts as (
    select
        truts.variant,
        truts.players,
        seat_policy(seats.policy, seats.player, answers.seat) as policy,
        row_number() over (
            partition by answers.dataset, answers.game_id, answers.hand_no, answers.raise_seq
            order by answers.seq
        ) as position,
        answers.verb = 'fold' as folded
    from int_answers_to_raises as answers
    inner join truts
        on truts.dataset = answers.dataset
        and truts.game_id = answers.game_id
        and truts.hand_no = answers.hand_no
        and truts.seq = answers.raise_seq
    left join stg_seats as seats
        on seats.dataset = answers.dataset
        and seats.game_id = answers.game_id
        and seats.hand_no = answers.hand_no
        and seats.seat = answers.seat
),

fold_by_position as (
    select
        variant,
        players,
        policy,
        'fold_by_position' as measure,
        position::varchar as level,
        null::bigint as trick_no,
        count(*) as n,
        count(*) filter (where folded) as count
    from answers_to_truts
    group by all
),

plays as (
    select dataset, game_id, hand_no, seq, seat, trick_no
    from stg_events
    where kind = 'play'
),

judged_truts as (
    select
        truts.variant,
        truts.players,
        truts.policy,
        truts.trick_no,
        case
            when truts.to_play is null then 'call'
            when truts.seat = truts.to_play then 'in_turn'
            when exists (
                select 1 from plays
                where plays.dataset = truts.dataset and plays.game_id = truts.game_id
                    and plays.hand_no = truts.hand_no and plays.trick_no = truts.trick_no
                    and plays.seq < truts.seq and plays.seat = truts.seat
            ) then 'out_after_card'
            else 'out_before_card'
        end as timing
    from truts
),

timing as (
    select
        variant,
        players,
        policy,
        'timing' as measure,
        timing as level,
        trick_no,
        count(*) as n,
        count(*) as count
    from judged_truts
    group by all
),

deciders as (
    select
        dataset,
        game_id,
        hand_no,
        arg_min(team, seq) as decider_team,
        arg_min(policy, seq) as decider_policy
    from hand_events
    where verb in ('trut', 'pass', 'hold')
    group by dataset, game_id, hand_no
),

special_hands as (
    select
        trut_hands.*,
        deciders.decider_team,
        deciders.decider_policy,
        exists (
            select 1 from hand_events
            where hand_events.dataset = trut_hands.dataset and hand_events.game_id = trut_hands.game_id
                and hand_events.hand_no = trut_hands.hand_no and hand_events.verb in ('trut', 'hold')
        ) as truted
    from trut_hands
    left join deciders using (dataset, game_id, hand_no)
    where trut_hands.special is not null
),

special_outcomes as (
    select
        special_hands.variant,
        special_hands.players,
        special_hands.decider_policy as policy,
        special_hands.special as measure,
        levels.level,
        null::bigint as trick_no,
        count(*) filter (where levels.level <> 'decider_won' or special_hands.decider_team is not null) as n,
        count(*) filter (
            where (levels.level = 'truted' and special_hands.truted)
            or (levels.level = 'passed' and special_hands.ended_by = 'pass')
            or (levels.level = 'folded' and special_hands.ended_by = 'fold')
            or (levels.level = 'decider_won' and special_hands.winner_team = special_hands.decider_team)
            or (levels.level = 'void' and special_hands.is_void)
        ) as count
    from special_hands
    cross join (select unnest(['truted', 'passed', 'folded', 'decider_won', 'void']) as level) as levels
    group by all
),

choices as (
    select
        hand_events.variant,
        hand_events.players,
        hand_events.policy,
        case
            when hand_events.verb in ('hold', 'pass') then 'hold'
            when hand_events.verb in ('sing', 'nosing') then 'sing'
        end as measure,
        hand_events.verb in ('hold', 'sing') as taken
    from hand_events
    inner join trut_hands using (dataset, game_id, hand_no)
    where hand_events.verb in ('sing', 'nosing')
        or (
            hand_events.verb in ('hold', 'pass')
            and coalesce(trut_hands.special not in ('fortial', 'fortial_both'), true)
        )
),

choice_rates as (
    select
        variant,
        players,
        policy,
        measure,
        null::varchar as level,
        null::bigint as trick_no,
        count(*) as n,
        count(*) filter (where taken) as count
    from choices
    group by all
),

asks as (
    select variant, players, policy, arg
    from hand_events
    where verb = 'ask'
),

chanson_cards as (
    select
        variant,
        players,
        policy,
        'chanson_cards' as measure,
        arg as level,
        null::bigint as trick_no,
        count(*) as n,
        count(*) as count
    from asks
    group by all
),

tally as (
    select * from trut_rate
    union all
    select * from fold_by_position
    union all
    select * from timing
    union all
    select * from special_outcomes
    union all
    select * from choice_rates
    union all
    select * from chanson_cards
)

select * from tally
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
            when measure in ('timing', 'chanson_cards')
                then (sum(n) over (partition by variant, players, policy, measure, trick_no))::bigint
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
order by variant, players, policy nulls last, measure, level nulls last, trick_no nulls last
