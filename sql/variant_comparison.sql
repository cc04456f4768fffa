-- variant_comparison: the headline figures of every variant and player count side by side.
--
-- Grain: one row per (variant, players).
-- Population: every game and hand; each figure uses the same definition as its own statistic, pooled
-- over stakes and tricks:
--   first trick     first_trick_value: hands with trick 1 won outright (trick1_winner >= 0)
--   bluffs          bluff_success: raises by seats of known strength_pct (the raise's seat_strength_pct),
--                   except those the rules oblige (int_forced_raises), a bluff below $threshold, folded
--                   when every answer facing it is a fold (the raise's outcome_folded, as in
--                   int_raise_outcomes)
--   folds           fold_rates: every answer to a raise (int_answers_to_raises)
--   eldest          mano_advantage: hands with a winner
--   ties            tie_frequency: tricks played (trick1..3_winner not null), tied = -1
--   game length     complete games (complete = true) and their hands
-- The bluff and fold figures are seats' choices pooled over every policy that played the group (its
-- headline, for comparing variants): `policies` says how many; bluff_success and fold_rates give them
-- per policy.
--
-- Columns
--   variant, players           the games' variant and player count
--   sides                      2, or 3 in 3-player Trut (max of games.sides)
--   unit                       what the games' scores count (games.unit: points, cames, longs)
--   policies                   how many policies (labels of int_seat_policies in sql/staging.sql) played the
--                              group's games: the raise, bluff and fold
--                              figures pool their seats' choices
--   games                      complete games
--   hands                      every hand of the group
--   mean_hands_per_game        hands of the complete games / games (NULL when no complete game)
--   first_trick_hands          hands with trick 1 won outright
--   first_trick_win_rate       share of them won by the side that took trick 1
--   first_trick_ci_low, first_trick_ci_high          its 95% Wilson interval
--   first_trick_value          first_trick_win_rate - share won by a side that lost trick 1
--   raises                     raises by seats of known strength
--   bluffs                     those with strength_pct < $threshold
--   bluff_rate                 bluffs / raises
--   bluff_ci_low, bluff_ci_high                      its 95% Wilson interval
--   bluffs_folded              bluffs all of whose answers are folds
--   bluff_success_rate         bluffs_folded / bluffs
--   bluff_success_ci_low, bluff_success_ci_high      its 95% Wilson interval
--   facing                     answers to raises
--   folds                      those whose verb is 'fold'
--   fold_rate                  folds / facing
--   fold_ci_low, fold_ci_high                        its 95% Wilson interval
--   decided_hands              hands with a winner
--   eldest_wins                those won by eldest_team
--   mano_win_rate              eldest_wins / decided_hands
--   mano_ci_low, mano_ci_high                        its 95% Wilson interval
--   mano_edge                  mano_win_rate - 1 / sides (the even share)
--   tricks                     tricks played
--   tied_tricks                tricks tied
--   tie_rate                   tied_tricks / tricks
--   tie_ci_low, tie_ci_high                          its 95% Wilson interval
--   A rate over an empty sample and its interval are NULL.
--
-- Parameters
--   $threshold   double in [0, 1], default 0.33: strength_pct below which a raise is a bluff (as in
--                bluff_success).
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players) of a dataset,
-- every column a count or a sum, so that datasets add up (games, hands, complete_hands, and the counts of each
-- figure's sample and successes), except three that the finish combines their own way: sides (a max: the
-- finish takes the max), unit (a min: the finish takes the min) and policy_labels (the sorted list of the
-- group's distinct policy labels: the finish unions the lists and counts the labels, so that a policy that
-- played in several datasets counts once).

with

games as (
    select dataset, game_id, variant, players, sides, unit, complete
    from stg_games
),

group_games as (
    select
        variant,
        players,
        max(sides) as sides,
        min(unit) as unit,
        count(*) filter (where complete) as games
    from games
    group by all
),

group_policies as (
    select
        games.variant,
        games.players,
        list_sort(list(distinct seat_policies.policy) filter (where seat_policies.policy is not null))
            as policy_labels
    from int_seat_policies as seat_policies
    inner join games using (dataset, game_id)
    group by all
),

hands as (
    select
        games.variant,
        games.players,
        games.complete,
        hands.winner_team,
        hands.eldest_team,
        hands.trick1_winner,
        hands.trick2_winner,
        hands.trick3_winner
    from stg_hands as hands
    inner join games using (dataset, game_id)
),

hand_figures as (
    select
        variant,
        players,
        count(*) as hands,
        count(*) filter (where complete) as complete_hands,
        count(*) filter (where trick1_winner >= 0) as first_trick_hands,
        count(*) filter (where trick1_winner >= 0 and winner_team = trick1_winner) as won_by_first,
        count(*) filter (where trick1_winner >= 0 and winner_team <> trick1_winner) as won_by_other,
        count(*) filter (where winner_team is not null) as decided_hands,
        count(*) filter (where winner_team = eldest_team) as eldest_wins,
        count(trick1_winner) + count(trick2_winner) + count(trick3_winner) as tricks,
        count(*) filter (where trick1_winner = -1)
        + count(*) filter (where trick2_winner = -1)
        + count(*) filter (where trick3_winner = -1) as tied_tricks
    from hands
    group by all
),

all_raises as (
    select dataset, game_id, hand_no, seq, seat, team, seat_strength_pct as strength_pct, outcome_folded as all_folded
    from stg_events
    anti join int_forced_raises as forced using (dataset, game_id, hand_no, seq)
    where kind = 'raise'
),

fold_figures as (
    select
        games.variant,
        games.players,
        count(*) as facing,
        count(*) filter (where answers.verb = 'fold') as folds
    from int_answers_to_raises as answers
    inner join games using (dataset, game_id)
    group by all
),

bluff_figures as (
    select
        games.variant,
        games.players,
        count(*) as raises,
        count(*) filter (where strength_pct < $threshold) as bluffs,
        count(*) filter (where strength_pct < $threshold and all_folded) as bluffs_folded
    from all_raises
    inner join games using (dataset, game_id)
    where strength_pct is not null
    group by all
),

tally as (
    select
        group_games.variant,
        group_games.players,
        group_games.sides,
        group_games.unit,
        coalesce(group_policies.policy_labels, []::varchar[]) as policy_labels,
        group_games.games,
        coalesce(hand_figures.hands, 0) as hands,
        coalesce(hand_figures.complete_hands, 0) as complete_hands,
        coalesce(hand_figures.first_trick_hands, 0) as first_trick_hands,
        coalesce(hand_figures.won_by_first, 0) as won_by_first,
        coalesce(hand_figures.won_by_other, 0) as won_by_other,
        coalesce(bluff_figures.raises, 0) as raises,
        coalesce(bluff_figures.bluffs, 0) as bluffs,
        coalesce(bluff_figures.bluffs_folded, 0) as bluffs_folded,
        coalesce(fold_figures.facing, 0) as facing,
        coalesce(fold_figures.folds, 0) as folds,
        coalesce(hand_figures.decided_hands, 0) as decided_hands,
        coalesce(hand_figures.eldest_wins, 0) as eldest_wins,
        coalesce(hand_figures.tricks, 0) as tricks,
        coalesce(hand_figures.tied_tricks, 0) as tied_tricks
    from group_games
    left join group_policies using (variant, players)
    left join hand_figures using (variant, players)
    left join bluff_figures using (variant, players)
    left join fold_figures using (variant, players)
)

select * from tally
-- finish
with

figures as (
    select
        variant,
        players,
        max(sides) as sides,
        min(unit) as unit,
        length(list_distinct(flatten(list(policy_labels)))) as policies,
        sum(games)::bigint as games,
        sum(hands)::bigint as hands,
        sum(complete_hands)::bigint as complete_hands,
        sum(first_trick_hands)::bigint as first_trick_hands,
        sum(won_by_first)::bigint as won_by_first,
        sum(won_by_other)::bigint as won_by_other,
        sum(raises)::bigint as raises,
        sum(bluffs)::bigint as bluffs,
        sum(bluffs_folded)::bigint as bluffs_folded,
        sum(facing)::bigint as facing,
        sum(folds)::bigint as folds,
        sum(decided_hands)::bigint as decided_hands,
        sum(eldest_wins)::bigint as eldest_wins,
        sum(tricks)::bigint as tricks,
        sum(tied_tricks)::bigint as tied_tricks
    from tally
    group by all
)

select
    variant,
    players,
    sides,
    unit,
    policies,
    games,
    hands,
    complete_hands / nullif(games, 0) as mean_hands_per_game,
    first_trick_hands,
    won_by_first / nullif(first_trick_hands, 0) as first_trick_win_rate,
    wilson_low(won_by_first, first_trick_hands) as first_trick_ci_low,
    wilson_high(won_by_first, first_trick_hands) as first_trick_ci_high,
    won_by_first / nullif(first_trick_hands, 0) - won_by_other / nullif(first_trick_hands, 0)
        as first_trick_value,
    raises,
    bluffs,
    bluffs / nullif(raises, 0) as bluff_rate,
    wilson_low(bluffs, raises) as bluff_ci_low,
    wilson_high(bluffs, raises) as bluff_ci_high,
    bluffs_folded,
    bluffs_folded / nullif(bluffs, 0) as bluff_success_rate,
    wilson_low(bluffs_folded, bluffs) as bluff_success_ci_low,
    wilson_high(bluffs_folded, bluffs) as bluff_success_ci_high,
    facing,
    folds,
    folds / nullif(facing, 0) as fold_rate,
    wilson_low(folds, facing) as fold_ci_low,
    wilson_high(folds, facing) as fold_ci_high,
    decided_hands,
    eldest_wins,
    eldest_wins / nullif(decided_hands, 0) as mano_win_rate,
    wilson_low(eldest_wins, decided_hands) as mano_ci_low,
    wilson_high(eldest_wins, decided_hands) as mano_ci_high,
    eldest_wins / nullif(decided_hands, 0) - 1.0 / sides as mano_edge,
    tricks,
    tied_tricks,
    tied_tricks / nullif(tricks, 0) as tie_rate,
    wilson_low(tied_tricks, tricks) as tie_ci_low,
    wilson_high(tied_tricks, tricks) as tie_ci_high
from figures
order by variant, players
