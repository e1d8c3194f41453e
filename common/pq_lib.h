/* pq_lib.h: the libpq functions the PostgreSQL store calls, looked up with
 * dlopen(3) when such a store is opened.  Linked into every program,
 * libpq and the twenty libraries it needs (TLS, Kerberos, LDAP) made each
 * start of a program on the default SQLite store several times slower, the
 * dynamic loader's work; now only a PostgreSQL store pays for them. */
#ifndef AC_PQ_LIB_H
#define AC_PQ_LIB_H

#include <libpq-fe.h>

#include "util.h"

#define PQ_LIB_SONAME "libpq.so.5"

/* The functions, each named without its PQ: the slot for PQexec is exec,
 * declared with the type of PQexec itself (__typeof__), so the compiler
 * holds every slot to libpq-fe.h. */
#define PQ_LIB_FUNCS(X) \
	X(connectdbParams) X(finish) X(reset) X(status) X(errorMessage) X(socket) \
	X(setNoticeProcessor) X(consumeInput) X(notifies) X(freemem) X(exec) X(execParams) \
	X(prepare) X(execPrepared) X(resultStatus) X(resultErrorField) X(ntuples) X(getvalue) \
	X(getisnull) X(nfields) X(cmdTuples) X(clear) X(sendQuery) X(sendQueryParams) X(sendPrepare) \
	X(sendQueryPrepared) X(isBusy) X(getResult) X(resetStart) X(resetPoll) X(serverVersion)

struct pq_lib {
	void *handle;
#define PQ_LIB_SLOT(f) __typeof__(PQ##f) *f;
	PQ_LIB_FUNCS(PQ_LIB_SLOT)
#undef PQ_LIB_SLOT
};

/* Load libpq and fill lib; ST_ERR says why it cannot be used. */
int pq_lib_open(struct pq_lib *lib, struct err *e);
void pq_lib_close(struct pq_lib *lib);   /* forgets lib; libpq stays loaded */

#endif
