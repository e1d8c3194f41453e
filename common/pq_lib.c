/* pq_lib.c: libpq, loaded when a PostgreSQL store is opened (pq_lib.h). */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "pq_lib.h"

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "dlsym needs POSIX function pointers");

int
pq_lib_open(struct pq_lib *lib, struct err *e)
{
	/* Each entry: the symbol, and where its address goes in lib. */
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
#define PQ_LIB_SYM(f) {"PQ" #f, offsetof(struct pq_lib, f)},
		PQ_LIB_FUNCS(PQ_LIB_SYM)
#undef PQ_LIB_SYM
	};
	memset(lib, 0, sizeof *lib);
	lib->handle = dlopen(PQ_LIB_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib->handle) {
		const char *why = dlerror();
		return err_set(e, ST_ERR, "a PostgreSQL store needs libpq, which cannot be loaded: %s",
		    why ? why : PQ_LIB_SONAME);
	}
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *f = dlsym(lib->handle, syms[i].name);
		if (!f) {
			err_set(e, ST_ERR, "the libpq loaded (%s) has no %s", PQ_LIB_SONAME, syms[i].name);
			return ST_ERR;
		}
		/* POSIX makes a data and a function pointer the same size, so
		 * dlsym's answer is stored in the slot as it is. */
		memcpy((char *)lib + syms[i].off, &f, sizeof f);
	}
	return ST_OK;
}

/* libpq stays loaded until the process ends, as a linked library would:
 * the libraries it brings (Kerberos, GnuTLS) leave thread keys and exit
 * handlers behind, which must not outlive their code.  Unloading it made
 * LeakSanitizer's exit-time scan crash. */
void
pq_lib_close(struct pq_lib *lib)
{
	memset(lib, 0, sizeof *lib);
}
