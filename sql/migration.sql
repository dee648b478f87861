-- docs/v1-to-v6.md's re-runnable, batched migration of a v1
-- primary key (with a foreign key pointing at it) to v6, and back.

SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
RESET client_min_messages;
CREATE TABLE accounts (id uuid PRIMARY KEY DEFAULT uuid_generate_v1(), name text);
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    account_id uuid NOT NULL REFERENCES accounts (id) ON UPDATE CASCADE
);
CREATE INDEX orders_account_id ON orders (account_id);
INSERT INTO accounts (name) SELECT 'account ' || n FROM generate_series(1, 2500) AS n;
INSERT INTO orders (account_id) SELECT id FROM accounts, generate_series(1, 2);
CREATE TEMP TABLE before AS
  SELECT a.id AS old_id, a.name, uuid_timestamp(a.id) AS created, uuid_clock_seq(a.id) AS cs, uuid_node(a.id) AS node,
         (SELECT count(*) FROM orders o WHERE o.account_id = a.id) AS orders
  FROM accounts a;

-- An index on the version finds the rows still to convert, both ways.
CREATE INDEX accounts_version ON accounts ((uuid_version(id)));

-- One batch per transaction; re-run until nothing is left.
CREATE PROCEDURE convert_ids(from_version integer, batch integer DEFAULT 1000)
LANGUAGE plpgsql AS $$
DECLARE
  converted bigint;
BEGIN
  LOOP
    UPDATE accounts SET id = CASE from_version WHEN 1 THEN uuid_v1_to_v6(id) ELSE uuid_v6_to_v1(id) END
    WHERE id IN (SELECT id FROM accounts WHERE uuid_version(id) = from_version
                 LIMIT batch FOR UPDATE SKIP LOCKED);
    GET DIAGNOSTICS converted = ROW_COUNT;
    RAISE NOTICE 'converted % rows', converted;
    COMMIT;
    EXIT WHEN converted = 0;
  END LOOP;
END $$;

CALL convert_ids(1);
-- running it again changes nothing
CALL convert_ids(1);
SELECT uuid_version(id) AS version, count(*) FROM accounts GROUP BY 1;
-- every account kept its time, clock_seq, node and orders; orders follow
SELECT count(*) AS accounts,
       bool_and(uuid_timestamp(a.id) = b.created AND uuid_clock_seq(a.id) = b.cs AND uuid_node(a.id) = b.node) AS same_fields,
       bool_and((SELECT count(*) FROM orders o WHERE o.account_id = a.id) = b.orders) AS same_orders
FROM accounts a JOIN before b ON a.id = uuid_v1_to_v6(b.old_id);
SELECT count(*) AS orphans FROM orders o WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.id = o.account_id);
-- and now the keys sort by creation time
SELECT count(*) AS out_of_time_order
FROM (SELECT uuid_timestamp(id) AS t, lag(uuid_timestamp(id)) OVER (ORDER BY id) AS prev FROM accounts) s
WHERE t < prev;

-- The way back.
CALL convert_ids(6);
SELECT uuid_version(id) AS version, count(*) FROM accounts GROUP BY 1;
SELECT count(*) AS restored FROM accounts a JOIN before b ON a.id = b.old_id;
SELECT count(*) AS orphans FROM orders o WHERE NOT EXISTS (SELECT FROM accounts a WHERE a.id = o.account_id);

DROP TABLE orders, accounts;
DROP PROCEDURE convert_ids;
