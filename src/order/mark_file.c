/*-------------------------------------------------------------------------
 *
 * mark_file.c
 *	  The high-water mark on disk: the file uuidx.hwm in the data directory.
 *
 * The file holds two marks (state.c says what they mean): the
 * Unix microsecond that v7 and v8 values may not pass, and v6's own.  It
 * is written whole to a new file that is renamed over the old one (with
 * durable_rename(), but for redo's writes, which the mark worker makes
 * durable), so whatever reads it, a restart or a copy of the data
 * directory, finds the old marks or the new ones, never a mix.  It is read
 * once, when the state is set up; a file that cannot be read or parsed is
 * reported and treated as absent, since that may happen in the
 * postmaster, where an error would stop the server.
 *
 *-------------------------------------------------------------------------
 */
#include "order/order_internal.h"

#include <fcntl.h>
#include <unistd.h>

#include "storage/fd.h"

#define UUIDX_MARK_TEMP_FILE "uuidx.hwm.tmp"
/* Version 1 (written by 1.0) kept one mark; version 2 adds v6's own. */
#define UUIDX_MARK_MAGIC_V1 "uuidx high-water mark v1 unix_us="
#define UUIDX_MARK_MAGIC "uuidx high-water mark v2 unix_us="
#define UUIDX_MARK_V6_FIELD " v6_unix_us="
#define UUIDX_MARK_RECORD_LEN 128
/* How far ahead of use 1.0 wrote its mark. */
#define UUIDX_MARK_V1_AHEAD_US INT64CONST(1000000)

/* What the WARNINGs about an unusable mark file say it means. */
#define UUIDX_MARK_LOST_DETAIL \
	"Values generated after this restart are ordered after earlier ones only if the clock is."

/* What an error about writing the mark says it means. */
#define UUIDX_MARK_WRITE_DETAIL \
	"A UUID is returned only once the persisted high-water mark covers its time."
#define UUIDX_MARK_WRITE_HINT \
	"Check that the data directory is writable and has free space."

/*
 * Parse a mark: digits, then the end of the field.  False unless it is a
 * number from 0 to max.
 */
static bool
parse_mark_value(const char *digits, const char **end, int64 *value, int64 max)
{
	char	   *stop;

	errno = 0;
	*value = strtoi64(digits, &stop, 10);
	*end = stop;
	return errno == 0 && stop != digits && *value >= 0 && *value <= max;
}

/*
 * Read the mark file into *mark (v7 and v8) and *v6_mark.  Both are 0 when
 * there is no file; a file that cannot be read or parsed is reported and
 * treated as absent, because this runs in the postmaster, where an error
 * would stop the server.  A version 1 file holds one mark, which v6 takes
 * only as far as its range goes.
 */
void
uuidx_mark_file_read(int64 *mark, int64 *v6_mark)
{
	char		buf[UUIDX_MARK_RECORD_LEN + 1];
	int			fd;
	ssize_t		n;
	const char *p;

	*mark = 0;
	*v6_mark = 0;
	fd = OpenTransientFile(UUIDX_MARK_FILE, O_RDONLY | PG_BINARY);
	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", UUIDX_MARK_FILE),
					 errdetail(UUIDX_MARK_LOST_DETAIL)));
		return;
	}
	n = read(fd, buf, UUIDX_MARK_RECORD_LEN);
	if (n < 0)
	{
		int			save_errno = errno;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", UUIDX_MARK_FILE),
				 errdetail(UUIDX_MARK_LOST_DETAIL)));
		return;
	}
	CloseTransientFile(fd);
	buf[n] = '\0';

	if (strncmp(buf, UUIDX_MARK_MAGIC, strlen(UUIDX_MARK_MAGIC)) == 0)
	{
		p = buf + strlen(UUIDX_MARK_MAGIC);
		if (!parse_mark_value(p, &p, mark, UUIDX_MARK_MAX_US) ||
			strncmp(p, UUIDX_MARK_V6_FIELD, strlen(UUIDX_MARK_V6_FIELD)) != 0 ||
			!parse_mark_value(p + strlen(UUIDX_MARK_V6_FIELD), &p, v6_mark, uuidx_v6_max_unix_us()) ||
			*p != '\n')
			goto corrupt;
		return;
	}
	if (strncmp(buf, UUIDX_MARK_MAGIC_V1, strlen(UUIDX_MARK_MAGIC_V1)) == 0)
	{
		/*
		 * 1.0 wrote up to a second past the end of v7 (needed time plus the
		 * window); such a mark still means "v7 and v8 are at their end".
		 */
		p = buf + strlen(UUIDX_MARK_MAGIC_V1);
		if (!parse_mark_value(p, &p, mark, UUIDX_MARK_MAX_US + UUIDX_MARK_V1_AHEAD_US) ||
			*p != '\n')
			goto corrupt;
		*mark = Min(*mark, UUIDX_MARK_MAX_US);
		*v6_mark = Min(*mark, uuidx_v6_max_unix_us());
		return;
	}

corrupt:
	*mark = 0;
	*v6_mark = 0;
	ereport(WARNING,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("ignoring invalid high-water mark file \"%s\"", UUIDX_MARK_FILE),
			 errdetail(UUIDX_MARK_LOST_DETAIL),
			 errhint("Remove the file; uuidx writes a new one.")));
}

/*
 * The new mark file, before it is renamed over the old one: written and
 * closed (durable_rename() fsyncs it, where the write is durable).
 */
static bool
write_temp_mark_file(int64 mark, int64 v6_mark, int elevel)
{
	char		buf[UUIDX_MARK_RECORD_LEN];
	int			fd;
	int			len;

	memset(buf, ' ', sizeof(buf));
	len = snprintf(buf, sizeof(buf), "%s" INT64_FORMAT "%s" INT64_FORMAT "\n",
				   UUIDX_MARK_MAGIC, mark, UUIDX_MARK_V6_FIELD, v6_mark);
	Assert(len > 0 && len < UUIDX_MARK_RECORD_LEN);
	/* Pad with spaces after the newline so every file has the same size. */
	buf[len] = ' ';
	buf[UUIDX_MARK_RECORD_LEN - 1] = '\n';

	fd = OpenTransientFile(UUIDX_MARK_TEMP_FILE, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", UUIDX_MARK_TEMP_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		return false;
	}
	errno = 0;
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
	{
		int			save_errno = errno ? errno : ENOSPC;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", UUIDX_MARK_TEMP_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		return false;
	}
	if (CloseTransientFile(fd) != 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", UUIDX_MARK_TEMP_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		return false;
	}
	return true;
}

/* Error context of a failed write of the mark file. */
static void
mark_file_context(void *arg)
{
	errcontext("writing the high-water mark file \"%s\"", UUIDX_MARK_FILE);
}

/* Report errors from here on with that context (undone by the caller). */
static void
push_context(ErrorContextCallback *errcallback)
{
	errcallback->callback = mark_file_context;
	errcallback->arg = NULL;
	errcallback->previous = error_context_stack;
	error_context_stack = errcallback;
}

/*
 * Write the marks: a new file, renamed over the old one, so that the file
 * holds the old marks or the new ones, never a mix, whatever reads it
 * meanwhile.  Where durable, with durable_rename(), which fsyncs the file
 * and the directory; otherwise renamed only, which a crash of PostgreSQL
 * keeps and a crash of the operating system may not (redo's writes, made
 * durable within a second by the mark worker: state.c).  Each
 * failing step is reported at elevel with core's wording; false if one
 * failed.  The caller holds the state's lock, which an ERROR releases.
 */
bool
uuidx_mark_file_write(int64 mark, int64 v6_mark, bool durable, int elevel)
{
	ErrorContextCallback errcallback;
	bool		written;

	push_context(&errcallback);
	written = write_temp_mark_file(mark, v6_mark, elevel);
	if (written && durable)
		written = durable_rename(UUIDX_MARK_TEMP_FILE, UUIDX_MARK_FILE, elevel) == 0;
	else if (written && rename(UUIDX_MARK_TEMP_FILE, UUIDX_MARK_FILE) != 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not rename file \"%s\" to \"%s\": %m",
						UUIDX_MARK_TEMP_FILE, UUIDX_MARK_FILE),
				 errdetail(UUIDX_MARK_WRITE_DETAIL),
				 errhint(UUIDX_MARK_WRITE_HINT)));
		written = false;
	}
	error_context_stack = errcallback.previous;
	return written;
}

/*
 * Make the mark file as it stands durable, and its name in the data
 * directory: what uuidx_mark_file_write() renamed without an fsync.
 * Reported at elevel; false if either fsync failed.
 */
bool
uuidx_mark_file_sync(int elevel)
{
	ErrorContextCallback errcallback;
	bool		synced;

	push_context(&errcallback);
	synced = fsync_fname_ext(UUIDX_MARK_FILE, false, false, elevel) == 0 &&
		fsync_fname_ext(".", true, false, elevel) == 0;
	error_context_stack = errcallback.previous;
	return synced;
}
