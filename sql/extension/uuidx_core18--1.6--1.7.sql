-- uuidx_core18 1.6 -> 1.7: upgrade script.  uuidx_core18's objects are as
-- in 1.4; the version follows uuidx's, which it requires.

\echo Use "ALTER EXTENSION uuidx_core18 UPDATE TO '1.7'" to load this file. \quit
