/* pq_lib.h: the libpq functions the PostgreSQL store calls, looked up with
 * dlopen(3) when such a store is opened.  Linked into every program,
 * libpq and the twenty libraries it needs (TLS, Kerberos, LDAP) made each
 * start of a program on the default SQLite store several times slower, the
 * dynamic loader's work; now only a PostgreSQL store pays for them.  The
 * types come from libpq-fe.h as usual. */
#ifndef AC_PQ_LIB_H
#define AC_PQ_LIB_H

#include <libpq-fe.h>

#include "util.h"

#define PQ_LIB_SONAME "libpq.so.5"

struct pq_lib {
	void *handle;
	PGconn *(*connectdbParams)(const char *const *keywords, const char *const *values,
	    int expand_dbname);
	void (*finish)(PGconn *conn);
	void (*reset)(PGconn *conn);
	ConnStatusType (*status)(const PGconn *conn);
	char *(*errorMessage)(const PGconn *conn);
	int (*socket)(const PGconn *conn);
	PQnoticeProcessor (*setNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
	int (*consumeInput)(PGconn *conn);
	PGnotify *(*notifies)(PGconn *conn);
	void (*freemem)(void *ptr);
	PGresult *(*exec)(PGconn *conn, const char *query);
	PGresult *(*execParams)(PGconn *conn, const char *command, int nParams,
	    const Oid *paramTypes, const char *const *paramValues, const int *paramLengths,
	    const int *paramFormats, int resultFormat);
	PGresult *(*prepare)(PGconn *conn, const char *stmtName, const char *query, int nParams,
	    const Oid *paramTypes);
	PGresult *(*execPrepared)(PGconn *conn, const char *stmtName, int nParams,
	    const char *const *paramValues, const int *paramLengths, const int *paramFormats,
	    int resultFormat);
	ExecStatusType (*resultStatus)(const PGresult *res);
	char *(*resultErrorField)(const PGresult *res, int fieldcode);
	int (*ntuples)(const PGresult *res);
	char *(*getvalue)(const PGresult *res, int tup_num, int field_num);
	int (*getisnull)(const PGresult *res, int tup_num, int field_num);
	char *(*cmdTuples)(PGresult *res);
	void (*clear)(PGresult *res);
};

/* Load libpq and fill lib; ST_ERR says why it cannot be used. */
int pq_lib_open(struct pq_lib *lib, struct err *e);
void pq_lib_close(struct pq_lib *lib);   /* forgets lib; libpq stays loaded */

#endif
