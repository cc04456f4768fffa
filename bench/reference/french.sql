-- french, by hand: the statistic counts only its own variants' games; the bench's Catalan data holds none, which
-- this finds by reading the games' variant column.
select variant, players, count(*) from games where variant like 'french%' group by all
