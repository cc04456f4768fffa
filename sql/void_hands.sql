-- void_hands: how often a hand is void: its tricks decide nothing (all tied in french and the trut family),
-- so nobody scores it, except in 3-player Trut's void duel (the truter keeps the petit of the fold).
--
-- Grain: one row per (variant, players).
-- Population: every hand. A hand is void when hands.void is true.
--
-- Columns
--   variant, players           the games' variant and player count
--   hands                      hands (the sample size)
--   void_hands                 void hands
--   void_rate                  void_hands / hands
--   ci_low, ci_high            its 95% Wilson interval
--
-- Parameters: none.
--
-- Tally (above the finish line; pipeline.statistics.FINISH_MARK): one row per (variant, players) of a dataset,
-- every column a count, so that datasets add up: hands and void_hands. The finish adds them up and divides.

with

games as (
    select dataset, game_id, variant, players
    from stg_games
),

all_hands as (
    select
        games.variant,
        games.players,
        hands.void as is_void
    from stg_hands as hands
    inner join games using (dataset, game_id)
),

tally as (
    select
        variant,
        players,
        count(*) as hands,
        count(*) filter (where is_void) as void_hands
    from all_hands
    group by all
)

select * from tally
-- finish
with

per_group as (
    select * replace (sum(hands)::bigint as hands, sum(void_hands)::bigint as void_hands)
    from tally
    group by all
)

select
    *,
    void_hands / hands as void_rate,
    wilson_low(void_hands, hands) as ci_low,
    wilson_high(void_hands, hands) as ci_high
from per_group
order by variant, players
