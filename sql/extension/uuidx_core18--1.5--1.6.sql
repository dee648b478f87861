-- uuidx_core18 1.5 -> 1.6: upgrade script.  uuidx_core18's objects are as
-- in 1.4; the version follows uuidx's, which it requires.

\echo Use "ALTER EXTENSION uuidx_core18 UPDATE TO '1.6'" to load this file. \quit
