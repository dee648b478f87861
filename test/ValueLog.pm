# A log of generated values for the TAP tests that move the server's clock
# (t/002_clock_faults.pl, t/003_restarts.pl): a table of v6, v7 and v8
# values in generation order, filled phase by phase, and the check that
# over everything logged each generator was unique and strictly increasing.
#
#   ValueLog::create($node);               # CREATE EXTENSION uuidx, the table, gen()
#   $node->safe_psql('postgres', "SELECT gen('phase', 1000)");
#   my $r = ValueLog::order($node);        # { n, distinct => 'd6 d7 d8', not_increasing => 'b6 b7 b8' }
package ValueLog;

use strict;
use warnings FATAL => 'all';

sub create
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION uuidx;
		CREATE TABLE log (seq bigserial PRIMARY KEY, phase text, u6 uuid, u7 uuid, u8 uuid);
		CREATE FUNCTION gen(phase text, n integer) RETURNS void LANGUAGE sql AS $$
		  INSERT INTO log (phase, u6, u7, u8)
		  SELECT phase, uuid_generate_v6(), uuid_generate_v7(), uuid_generate_v8()
		  FROM generate_series(1, n) $$;
	});
}

# Over every logged row, in generation order: the row count, the distinct
# values of each generator, and how many values of each were not greater
# than the one logged before them.
sub order
{
	my ($node) = @_;
	my ($n, $d6, $d7, $d8, $b6, $b7, $b8) = split /\|/, $node->safe_psql('postgres', q{
		SELECT count(*), count(DISTINCT u6), count(DISTINCT u7), count(DISTINCT u8),
		       count(*) FILTER (WHERE u6 <= p6), count(*) FILTER (WHERE u7 <= p7),
		       count(*) FILTER (WHERE u8 <= p8)
		FROM (SELECT u6, u7, u8, lag(u6) OVER w p6, lag(u7) OVER w p7, lag(u8) OVER w p8
		      FROM log WINDOW w AS (ORDER BY seq)) s});
	return { n => $n, distinct => "$d6 $d7 $d8", not_increasing => "$b6 $b7 $b8" };
}

1;
