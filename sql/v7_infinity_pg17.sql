-- PostgreSQL 17 and later have infinite intervals: a shift by one is an error.
SELECT uuid_generate_v7(interval 'infinity');
SELECT uuid_generate_v7(interval '-infinity');
