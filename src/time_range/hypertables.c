/*-------------------------------------------------------------------------
 *
 * hypertables.c
 *	  What TimescaleDB says of a table: whether a column is the uuid
 *	  dimension of a hypertable, by which TimescaleDB makes and excludes its
 *	  chunks.
 *
 * TimescaleDB (2.23 and later) partitions a hypertable by a uuid column,
 * create_hypertable('t', by_range('id', interval '1 day')): it routes only
 * version 7 keys of the RFC variant on INSERT (any other is an error), and
 * gives each chunk a CHECK id >= a AND id < b on the keys of its interval.
 * An UPDATE of the key, or a write to a chunk itself, still puts other
 * keys in the column, so the time clauses read every version the column
 * holds.  TimescaleDB's ChunkAppend excludes chunks, at planning for
 * constants and when the executor starts for now(), by the comparisons of
 * the column with values among the query's conditions (id >= x), which it
 * proves to contradict a chunk's CHECK.  For such a column the time
 * clauses carry those comparisons for their v7 arm, as they do for a
 * partitioned table's key (clauses.c).
 *
 * The dimension is read from TimescaleDB's catalog, its tables
 * _timescaledb_catalog.hypertable and .dimension (the same columns from
 * 2.19 to 2.31), with a catalog snapshot; a database without TimescaleDB
 * costs a lookup of the extension.  declared.c keeps the answer with the
 * rest of what it reads of a column.
 *
 *-------------------------------------------------------------------------
 */
#include "time_range/time_range_internal.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace_d.h"
#include "catalog/pg_type_d.h"
#include "commands/extension.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#define TIMESCALEDB_CATALOG "_timescaledb_catalog"

/*
 * A column of TimescaleDB's catalog that uuidx reads: its name, and the
 * type its value is read as (InvalidOid where only its nullness is read).
 */
typedef struct CatalogColumn
{
	const char *name;
	Oid			type;
} CatalogColumn;

/*
 * Open a table of TimescaleDB's catalog and find its columns by name; NULL
 * where there is no such table, or it lacks one of them, or one is not of
 * the type its value is read as (a regtype is read as an oid).
 */
static Relation
open_catalog(Oid schema, const char *table, int ncolumns, const CatalogColumn *wanted,
			 AttrNumber *columns)
{
	Oid			relid = get_relname_relid(table, schema);
	Relation	rel;

	if (!OidIsValid(relid))
		return NULL;
	rel = table_open(relid, AccessShareLock);
	for (int i = 0; i < ncolumns; i++)
	{
		Oid			type;

		columns[i] = get_attnum(relid, wanted[i].name);
		type = columns[i] > 0 ? get_atttype(relid, columns[i]) : InvalidOid;
		if (type == REGTYPEOID)
			type = OIDOID;
		if (columns[i] <= 0 || (OidIsValid(wanted[i].type) && type != wanted[i].type))
		{
			table_close(rel, AccessShareLock);
			return NULL;
		}
	}
	return rel;
}

/*
 * The schema of TimescaleDB's catalog, where the extension is there and the
 * schema is its own; InvalidOid otherwise (a schema of that name made by
 * someone else is not read).
 */
static Oid
timescaledb_catalog(void)
{
	Oid			ext = get_extension_oid("timescaledb", true);
	Oid			schema;

	if (!OidIsValid(ext))
		return InvalidOid;
	schema = get_namespace_oid(TIMESCALEDB_CATALOG, true);
	if (!OidIsValid(schema) ||
		getExtensionOfObject(NamespaceRelationId, schema) != ext)
		return InvalidOid;
	return schema;
}

/*
 * The id TimescaleDB gives the hypertable rel, or 0 where it is none.
 */
static int32
hypertable_id(Oid schema, Relation rel)
{
	static const CatalogColumn wanted[] = {
	{"id", INT4OID}, {"schema_name", NAMEOID}, {"table_name", NAMEOID}};
	AttrNumber	columns[3];
	Relation	catalog = open_catalog(schema, "hypertable", 3, wanted, columns);
	ScanKeyData keys[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	int32		id = 0;

	if (catalog == NULL)
		return 0;
	ScanKeyInit(&keys[0], columns[1], BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum(get_namespace_name(RelationGetNamespace(rel))));
	ScanKeyInit(&keys[1], columns[2], BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum(RelationGetRelationName(rel)));
	scan = systable_beginscan(catalog, InvalidOid, false, NULL, 2, keys);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		value = heap_getattr(tuple, columns[0], RelationGetDescr(catalog), &isnull);

		if (!isnull)
			id = DatumGetInt32(value);
	}
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
	return id;
}

/*
 * Is the column (of type uuid) the dimension of a hypertable that TimescaleDB
 * partitions by intervals of its v7 keys' time: an open dimension (with an
 * interval) of the column itself, without a partitioning function?
 */
bool
uuidx_tr_hypertable_uuid_dimension(Relation rel, AttrNumber attnum)
{
	static const CatalogColumn wanted[] = {
		{"hypertable_id", INT4OID}, {"column_name", NAMEOID}, {"column_type", OIDOID},
	{"interval_length", InvalidOid}, {"partitioning_func", InvalidOid}};
	AttrNumber	columns[5];
	Oid			schema;
	int32		id;
	Relation	catalog;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		found = false;
	const char *column;

	if (attnum <= 0 || attnum > RelationGetNumberOfAttributes(rel) ||
		TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid != UUIDOID ||
		!rel->rd_rel->relhassubclass)
		return false;
	schema = timescaledb_catalog();
	if (!OidIsValid(schema) || (id = hypertable_id(schema, rel)) == 0 ||
		(catalog = open_catalog(schema, "dimension", 5, wanted, columns)) == NULL)
		return false;
	column = NameStr(TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attname);
	ScanKeyInit(&key, columns[0], BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(id));
	scan = systable_beginscan(catalog, InvalidOid, false, NULL, 1, &key);
	while (!found && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		TupleDesc	desc = RelationGetDescr(catalog);
		bool		name_null,
					type_null,
					interval_null,
					func_null;
		Datum		name = heap_getattr(tuple, columns[1], desc, &name_null);
		Datum		type = heap_getattr(tuple, columns[2], desc, &type_null);

		(void) heap_getattr(tuple, columns[3], desc, &interval_null);
		(void) heap_getattr(tuple, columns[4], desc, &func_null);
		found = !name_null && !type_null && !interval_null && func_null &&
			strcmp(NameStr(*DatumGetName(name)), column) == 0 &&
			DatumGetObjectId(type) == UUIDOID;
	}
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
	return found;
}
