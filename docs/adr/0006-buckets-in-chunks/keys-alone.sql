-- What every other script spends on choosing its keys, to take off their figures.
\set s random(:first, :last)
SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer);
