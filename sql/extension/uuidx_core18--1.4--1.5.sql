-- uuidx_core18 1.4 -> 1.5: upgrade script.  uuidx_core18's objects are as
-- in 1.4 (its C functions, in uuidx's library, raise 18's own errors from
-- uuidx 1.5.0 on, whichever SQL version is installed); the version follows
-- uuidx's, which it requires.

\echo Use "ALTER EXTENSION uuidx_core18 UPDATE TO '1.5'" to load this file. \quit
