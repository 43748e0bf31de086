/* rbda's fast entries: one call of a public algorithm from Python at the cost of a C function call.
 *
 * An Entry is bound to one model (and one data): called ``entry(model[, data], *arguments)`` through vectorcall,
 * it checks that the model and data are the bound ones and the binding current, parses each argument by the
 * entry's spec through the CPython and numpy C API (an exact float64 ndarray, native byte order, C-contiguous and
 * aligned, of the expected shape; an exact int >= 0; an int or ReferenceFrame of value 0, 1 or 2; an exact float;
 * True or False), and calls its body, a numba cfunc, with plain pointers and integers only:
 *
 *     int64_t body(int64_t *table, int64_t *values)
 *
 * ``table`` is the entry's int64 table (the addresses of the model's packed arrays and of the data's buffers, the
 * kernel's address, sizes); ``values`` holds the parsed arguments in order (an array's data address, an int's
 * value, a float's bits), the column count of a ``k`` matrix at VALUE_COLUMNS and room for a float result at
 * VALUE_RESULT. The body returns a status (STATUS_*) that the entry turns into its result: the object it holds,
 * True, False, a new float, or None, which tells the caller to take the ordinary path (which converts the
 * arguments or raises the named error). Any argument the spec does not take answers None as well.
 *
 * Argument kinds (the spec's bytes, one per argument after the model and data):
 *   'v' vector of size n1          'm' matrix (n1, n2)          'k' matrix (n1, any columns k)
 *   'K' matrix (n1, the k of the 'k' before)                     'i' exact int >= 0
 *   'r' exact int or the ReferenceFrame type, 0 <= value <= 2    'f' exact float        'b' True or False
 *   'o' no argument: a new vector of n1 float64 that the entry allocates and returns (in place of its result)
 *   'P' a placement: an object of the entry's placement type (SE3) whose ``rotation`` is a float64 (3, 3) and
 *       ``translation`` a float64 (3,) array, copied into a (3, 4) buffer of the call as [R | t]
 *   'F' forces (n1, 6): a matrix of that shape, or a list or tuple of n1 objects each a float64 vector (6,) or
 *       holding one as its ``vector`` (a Force), copied into a buffer of the call (at most FORCE_ROWS rows)
 *
 * A Public is a public function as one C call: ``function(model, data, *inputs)`` (or ``function(model, *inputs)``)
 * fills in the function's defaults and constants, calls the holder's entry ``holder.fast_entries.<name>`` and
 * returns its answer, copied or wrapped (POST_*), or, when the entry answers None (or the call has keywords or
 * another count of arguments), returns what the ordinary Python implementation returns for the call as given.
 *
 * A Step is a simulator's compiled step as one C call (see its section below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#define MAX_ARGUMENTS 8
#define VALUE_COLUMNS 8
#define VALUE_RESULT 9
#define VALUES 10
#define FORCE_ROWS 512

enum { STATUS_ORDINARY = 0, STATUS_RESULT = 1, STATUS_TRUE = 2, STATUS_FALSE = 3, STATUS_FLOAT = 4 };

typedef int64_t (*body_function)(int64_t *table, int64_t *values);

/* The functions every callable type of this file has alike, from the list of the object members it owns
 * (``MEMBERS(X)`` applies X to each): ``new`` (an object not initialised yet refuses calls), ``call`` (through
 * vectorcall), ``traverse`` and ``clear`` for the garbage collector, and ``dealloc``. */
#define VISIT_MEMBER(field) Py_VISIT(self->field);
#define CLEAR_MEMBER(field) Py_CLEAR(self->field);
#define GC_CALLABLE(prefix, Type, MEMBERS, uninitialised)                                                   \
    static PyObject *prefix##_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {                  \
        Type *self = (Type *)type->tp_alloc(type, 0);                                                     \
        if (self != NULL) self->vectorcall = NULL;                                                        \
        return (PyObject *)self;                                                                          \
    }                                                                                                     \
    static PyObject *prefix##_call(PyObject *callable, PyObject *args, PyObject *kwargs) {               \
        if (((Type *)callable)->vectorcall == NULL) {                                                     \
            PyErr_SetString(PyExc_TypeError, uninitialised);                                              \
            return NULL;                                                                                  \
        }                                                                                                 \
        return PyVectorcall_Call(callable, args, kwargs);                                                 \
    }                                                                                                     \
    static int prefix##_traverse(Type *self, visitproc visit, void *arg) {                               \
        MEMBERS(VISIT_MEMBER)                                                                             \
        return 0;                                                                                         \
    }                                                                                                     \
    static int prefix##_clear(Type *self) {                                                               \
        self->vectorcall = NULL;                                                                          \
        MEMBERS(CLEAR_MEMBER)                                                                             \
        return 0;                                                                                         \
    }                                                                                                     \
    static void prefix##_dealloc(Type *self) {                                                            \
        PyObject_GC_UnTrack(self);                                                                        \
        prefix##_clear(self);                                                                             \
        Py_TYPE(self)->tp_free((PyObject *)self);                                                         \
    }
/* the header, name and slots of a GC_CALLABLE type (with ``prefix##_doc`` and ``prefix##_init``), first in its
   PyTypeObject */
#define GC_CALLABLE_SLOTS(prefix, Type)                                                                     \
    PyVarObject_HEAD_INIT(NULL, 0) .tp_name = "rbda._native._entry." #Type,                                \
    .tp_basicsize = sizeof(Type), .tp_dealloc = (destructor)prefix##_dealloc,                             \
    .tp_vectorcall_offset = offsetof(Type, vectorcall), .tp_call = prefix##_call,                         \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL, .tp_doc = prefix##_doc, \
    .tp_traverse = (traverseproc)prefix##_traverse, .tp_clear = (inquiry)prefix##_clear,                  \
    .tp_init = (initproc)prefix##_init, .tp_new = prefix##_new

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    body_function body;
    int64_t *table;          /* the data of ``table_array`` */
    const int64_t *token;    /* the binding's token: 0 once the model was edited */
    PyObject *table_array;   /* int64 ndarray */
    PyObject *token_array;   /* int64 ndarray (1,) */
    PyObject *model_ref;     /* weak reference to the bound model */
    PyObject *data_ref;      /* weak reference to the bound data, or NULL for an entry bound to a model only */
    PyObject *result;        /* the object STATUS_RESULT returns */
    PyObject *reference_frame;  /* the ReferenceFrame type */
    PyObject *placement;        /* the SE3 type, or NULL (a 'P' argument) */
    PyObject *keep;          /* everything the table points to */
    PyObject *name;          /* str, for repr */
    Py_ssize_t fixed;        /* 1 (model) or 2 (model, data) */
    Py_ssize_t count;        /* arguments after them */
    Py_ssize_t output;       /* the argument index of an 'o' kind, or -1 */
    char kinds[MAX_ARGUMENTS];
    int64_t n1[MAX_ARGUMENTS], n2[MAX_ARGUMENTS];
} Entry;

/* the referent of a weak reference as a borrowed pointer, or NULL once it is gone (only compared, never used) */
static inline PyObject *referent(PyObject *ref) {
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *obj;
    if (PyWeakref_GetRef(ref, &obj) != 1) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(obj); /* the caller holds the object it compares with: it stays alive */
    return obj;
#else
    PyObject *obj = PyWeakref_GetObject(ref);
    return obj == Py_None ? NULL : obj;
#endif
}

/* the data of ``obj`` if it is an exact float64 ndarray of native byte order, C-contiguous and aligned, with
   ``nd`` dimensions; else NULL */
static inline PyArrayObject *float_array(PyObject *obj, int nd) {
    if (!PyArray_CheckExact(obj)) return NULL;
    PyArrayObject *a = (PyArrayObject *)obj;
    if (PyArray_NDIM(a) != nd || PyArray_TYPE(a) != NPY_DOUBLE || !PyArray_ISNOTSWAPPED(a)) return NULL;
    if (!PyArray_CHKFLAGS(a, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED)) return NULL;
    return a;
}

/* the value of an int (exact int, or of type ``other`` if not NULL) in [0, high]; -1 for anything else */
static inline int64_t int_value(PyObject *obj, PyObject *other, int64_t high) {
    if (!PyLong_CheckExact(obj) && (other == NULL || (PyObject *)Py_TYPE(obj) != other)) return -1;
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || value < 0 || value > high) {
        if (value == -1 && PyErr_Occurred()) PyErr_Clear();
        return -1;
    }
    return (int64_t)value;
}

static PyObject *vector_str, *rotation_str, *translation_str; /* "vector", "rotation", "translation", interned */

/* 1 if ``obj`` is of type ``type`` with a float64 (3, 3) ``rotation`` and (3,) ``translation`` (C-contiguous), copied
   into ``buffer`` as the (3, 4) matrix [R | t], else 0 */
static int placement(PyObject *obj, PyObject *type, double *buffer) {
    if (type == NULL || (PyObject *)Py_TYPE(obj) != type) return 0;
    PyObject *R = PyObject_GetAttr(obj, rotation_str), *t = R == NULL ? NULL : PyObject_GetAttr(obj, translation_str);
    PyArrayObject *r, *p;
    int ok = t != NULL && (r = float_array(R, 2)) != NULL && PyArray_DIM(r, 0) == 3 && PyArray_DIM(r, 1) == 3
             && (p = float_array(t, 1)) != NULL && PyArray_DIM(p, 0) == 3;
    if (ok) {
        const double *rot = (const double *)PyArray_DATA(r), *tr = (const double *)PyArray_DATA(p);
        for (int i = 0; i < 3; ++i) {
            memcpy(buffer + 4 * i, rot + 3 * i, 3 * sizeof(double));
            buffer[4 * i + 3] = tr[i];
        }
    }
    if (R == NULL || t == NULL) PyErr_Clear();
    Py_XDECREF(R);
    Py_XDECREF(t);
    return ok;
}

/* 1 if ``obj`` is ``rows`` forces (an (rows, 6) matrix, or a list or tuple of rows 6-vectors or objects whose
   ``vector`` is one), their address in ``*address`` (``buffer``: where a sequence is copied), else 0 */
static int forces(PyObject *obj, int64_t rows, double *buffer, int64_t *address) {
    PyArrayObject *a;
    if ((a = float_array(obj, 2)) != NULL) {
        if (PyArray_DIM(a, 0) != rows || PyArray_DIM(a, 1) != 6) return 0;
        *address = (int64_t)(intptr_t)PyArray_DATA(a);
        return 1;
    }
    if (!(PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) || PySequence_Fast_GET_SIZE(obj) != rows
        || rows > FORCE_ROWS)
        return 0;
    PyObject **items = PySequence_Fast_ITEMS(obj);
    for (int64_t i = 0; i < rows; ++i) {
        PyObject *item = items[i], *vector = NULL;
        if (!PyArray_CheckExact(item)) {
            if ((vector = PyObject_GetAttr(item, vector_str)) == NULL) {
                PyErr_Clear();
                return 0;
            }
            item = vector;
        }
        int ok = (a = float_array(item, 1)) != NULL && PyArray_DIM(a, 0) == 6;
        if (ok) memcpy(buffer + 6 * i, PyArray_DATA(a), 6 * sizeof(double));
        Py_XDECREF(vector);
        if (!ok) return 0;
    }
    *address = (int64_t)(intptr_t)buffer;
    return 1;
}

/* 1 if the arguments are ones the entry takes (parsed into ``values``; ``buffer``: room for FORCE_ROWS forces,
   ``frame``: for a placement), else 0 */
static int parse(Entry *self, PyObject *const *args, int64_t *values, double *buffer, double *frame) {
    for (Py_ssize_t j = 0, k = 0; j < self->count; ++j) {
        PyArrayObject *a;
        if (self->kinds[j] == 'o') continue;
        PyObject *obj = args[k++];
        switch (self->kinds[j]) {
        case 'v':
            if (!(a = float_array(obj, 1)) || PyArray_DIM(a, 0) != self->n1[j]) return 0;
            values[j] = (int64_t)(intptr_t)PyArray_DATA(a);
            break;
        case 'm':
            if (!(a = float_array(obj, 2)) || PyArray_DIM(a, 0) != self->n1[j] || PyArray_DIM(a, 1) != self->n2[j])
                return 0;
            values[j] = (int64_t)(intptr_t)PyArray_DATA(a);
            break;
        case 'F':
            if (!forces(obj, self->n1[j], buffer, &values[j])) return 0;
            break;
        case 'P':
            if (!placement(obj, self->placement, frame)) return 0;
            values[j] = (int64_t)(intptr_t)frame;
            break;
        case 'k':
            if (!(a = float_array(obj, 2)) || PyArray_DIM(a, 0) != self->n1[j]) return 0;
            values[j] = (int64_t)(intptr_t)PyArray_DATA(a);
            values[VALUE_COLUMNS] = PyArray_DIM(a, 1);
            break;
        case 'K':
            if (!(a = float_array(obj, 2)) || PyArray_DIM(a, 0) != self->n1[j]
                || PyArray_DIM(a, 1) != values[VALUE_COLUMNS])
                return 0;
            values[j] = (int64_t)(intptr_t)PyArray_DATA(a);
            break;
        case 'i':
            if ((values[j] = int_value(obj, NULL, INT64_MAX)) < 0) return 0;
            break;
        case 'r':
            if ((values[j] = int_value(obj, self->reference_frame, 2)) < 0) return 0;
            break;
        case 'f': {
            if (!PyFloat_CheckExact(obj)) return 0;
            double x = PyFloat_AS_DOUBLE(obj);
            memcpy(&values[j], &x, sizeof x);
            break;
        }
        case 'b':
            if (obj == Py_True) values[j] = 1;
            else if (obj == Py_False) values[j] = 0;
            else return 0;
            break;
        default:
            return 0;
        }
    }
    return 1;
}

static PyObject *entry_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Entry *self = (Entry *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int64_t values[VALUES];
    double buffer[6 * FORCE_ROWS], frame[12]; /* an 'F' argument given as a sequence, a 'P' argument */
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) Py_RETURN_NONE;
    if (nargs != self->fixed + self->count - (self->output >= 0) || *self->token == 0) Py_RETURN_NONE;
    PyObject *model = referent(self->model_ref);
    if (model == NULL || args[0] != model) Py_RETURN_NONE;
    if (self->data_ref != NULL) {
        PyObject *data = referent(self->data_ref);
        if (data == NULL || args[1] != data) Py_RETURN_NONE;
    }
    if (!parse(self, args + self->fixed, values, buffer, frame)) Py_RETURN_NONE;
    PyObject *output = NULL;
    if (self->output >= 0) {
        npy_intp n = (npy_intp)self->n1[self->output];
        if ((output = PyArray_EMPTY(1, &n, NPY_DOUBLE, 0)) == NULL) return NULL;
        values[self->output] = (int64_t)(intptr_t)PyArray_DATA((PyArrayObject *)output);
    }
    int64_t status = self->body(self->table, values);
    if (output != NULL) {
        if (status == STATUS_RESULT) return output;
        Py_DECREF(output);
    }
    switch (status) {
    case STATUS_RESULT:
        return Py_NewRef(self->result);
    case STATUS_TRUE:
        Py_RETURN_TRUE;
    case STATUS_FALSE:
        Py_RETURN_FALSE;
    case STATUS_FLOAT: {
        double x;
        memcpy(&x, &values[VALUE_RESULT], sizeof x);
        return PyFloat_FromDouble(x);
    }
    default:
        Py_RETURN_NONE;
    }
}

static const char entry_doc[] =
    "Entry(body, table, token, model_ref, data_ref, result, kinds, sizes, reference_frame, keep, name,\n"
    "      placement=None)\n\n"
    "A fast entry bound to a model (and a data): ``entry(model[, data], *arguments)`` returns the result, True,\n"
    "False, a float, or None for the ordinary path. ``body``: the address of the cfunc ``int64(int64 *table,\n"
    "int64 *values)``; ``table``: its int64 ndarray; ``token``: the binding's int64 ndarray (1,); ``model_ref``,\n"
    "``data_ref``: weak references (``data_ref`` None for an entry of a model only); ``result``: the object a\n"
    "status 1 returns; ``kinds``: bytes, one argument kind each (v m k K i r f b o F, at most one F); ``sizes``: a tuple of (n1, n2)\n"
    "per kind; ``reference_frame``: the ReferenceFrame type; ``keep``: objects kept alive; ``name``: a str;\n"
    "``placement``: the type a 'P' argument must have (SE3).";

static int entry_init(Entry *self, PyObject *args, PyObject *kwds) {
    unsigned long long body;
    PyObject *table, *token, *model_ref, *data_ref, *result, *sizes, *reference_frame, *keep, *name, *frame = NULL;
    const char *kinds;
    Py_ssize_t count;
    static char *keywords[] = {"body", "table", "token", "model_ref", "data_ref", "result", "kinds", "sizes",
                               "reference_frame", "keep", "name", "placement", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KO!O!OOOy#O!OOU|O", keywords, &body, &PyArray_Type, &table,
                                     &PyArray_Type, &token, &model_ref, &data_ref, &result,
                                     &kinds, &count, &PyTuple_Type, &sizes, &reference_frame, &keep, &name, &frame))
        return -1;
    if (body == 0) {
        PyErr_SetString(PyExc_ValueError, "body: a null address");
        return -1;
    }
    self->output = -1;
    if (count > MAX_ARGUMENTS || PyTuple_GET_SIZE(sizes) != count) {
        PyErr_SetString(PyExc_ValueError, "kinds, sizes: at most 8 arguments, one (n1, n2) per kind");
        return -1;
    }
    if (!PyWeakref_CheckRefExact(model_ref) || (data_ref != Py_None && !PyWeakref_CheckRefExact(data_ref))) {
        PyErr_SetString(PyExc_TypeError, "model_ref, data_ref: expected weak references (data_ref: or None)");
        return -1;
    }
    PyArrayObject *t = (PyArrayObject *)table, *k = (PyArrayObject *)token;
    if (PyArray_TYPE(t) != NPY_INT64 || !PyArray_ISCARRAY(t) || PyArray_NDIM(t) != 1 || PyArray_TYPE(k) != NPY_INT64
        || !PyArray_ISCARRAY_RO(k) || PyArray_SIZE(k) != 1) {
        PyErr_SetString(PyExc_ValueError, "table, token: expected writeable C-contiguous int64 vectors");
        return -1;
    }
    for (Py_ssize_t j = 0; j < count; ++j) {
        if (strchr("vmkKirfboFP", kinds[j]) == NULL || (kinds[j] == 'o' && self->output >= 0 && self->output != j)
            || ((kinds[j] == 'F' || kinds[j] == 'P') && strchr(kinds + j + 1, kinds[j]) != NULL)) {
            PyErr_Format(PyExc_ValueError, "kinds: unknown kind, or a second o, F or P: %c", kinds[j]);
            return -1;
        }
        PyObject *pair = PyTuple_GET_ITEM(sizes, j);
        long long n1, n2;
        if (!PyArg_ParseTuple(pair, "LL", &n1, &n2)) return -1;
        self->kinds[j] = kinds[j], self->n1[j] = n1, self->n2[j] = n2;
        if (kinds[j] == 'o') self->output = j;
    }
    self->body = (body_function)(uintptr_t)body;
    self->table = (int64_t *)PyArray_DATA(t);
    self->token = (const int64_t *)PyArray_DATA(k);
    self->count = count;
    self->fixed = data_ref == Py_None ? 1 : 2;
    Py_XSETREF(self->table_array, Py_NewRef(table));
    Py_XSETREF(self->token_array, Py_NewRef(token));
    Py_XSETREF(self->model_ref, Py_NewRef(model_ref));
    Py_XSETREF(self->data_ref, data_ref == Py_None ? NULL : Py_NewRef(data_ref));
    Py_XSETREF(self->result, Py_NewRef(result));
    Py_XSETREF(self->reference_frame, Py_NewRef(reference_frame));
    Py_XSETREF(self->placement, frame == NULL || frame == Py_None ? NULL : Py_NewRef(frame));
    Py_XSETREF(self->keep, Py_NewRef(keep));
    Py_XSETREF(self->name, Py_NewRef(name));
    self->vectorcall = entry_vectorcall;
    return 0;
}

#define ENTRY_MEMBERS(X) X(table_array) X(token_array) X(model_ref) X(data_ref) X(result) X(reference_frame) X(placement) X(keep) X(name)
GC_CALLABLE(entry, Entry, ENTRY_MEMBERS, "an Entry that was not initialised")

static PyObject *entry_repr(Entry *self) {
    return PyUnicode_FromFormat("<rbda fast entry %S>", self->name ? self->name : Py_None);
}

static PyTypeObject EntryType = {
    GC_CALLABLE_SLOTS(entry, Entry),
    .tp_repr = (reprfunc)entry_repr,
};

/* ------------------------------------------------------------------------------------------- Public */
enum { POST_AS_IS = 0, POST_NONE = 1, POST_COPY = 2, POST_WRAP = 3, POST_PLACEMENT = 4 };

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *name;            /* the entry's name in ``fast_entries`` (interned str), or one per argument count */
    PyObject *implementation;  /* the ordinary Python function */
    PyObject *defaults;        /* tuple: the values of the trailing parameters a call may leave out */
    PyObject *constants;       /* tuple: appended after them */
    PyObject *wrapper;         /* the class whose ``vector`` slot a POST_WRAP result fills, or None */
    PyObject *dict;            /* __doc__, __name__, __qualname__, __module__, __wrapped__ */
    Py_ssize_t holder;         /* the argument whose ``fast_entries`` hold the entry: 0 the model, 1 the data */
    Py_ssize_t arity;          /* the number of positional parameters */
    int post;
} Public;

static PyObject *fast_entries_str;

/* a new object of ``type`` (``cls.__new__(cls)``) with ``rotation`` and ``translation`` new copies of the
   placement ``[R | p]`` at ``block`` (3, 4), row-major */
static PyObject *new_placement(PyTypeObject *type, const double *block) {
    npy_intp three = 3, shape[2] = {3, 3};
    PyObject *R = PyArray_SimpleNew(2, shape, NPY_DOUBLE), *p = PyArray_SimpleNew(1, &three, NPY_DOUBLE);
    PyObject *out = R && p ? type->tp_alloc(type, 0) : NULL;
    if (out != NULL) {
        double *r = (double *)PyArray_DATA((PyArrayObject *)R), *t = (double *)PyArray_DATA((PyArrayObject *)p);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) r[3 * i + j] = block[4 * i + j];
            t[i] = block[4 * i + 3];
        }
        if (PyObject_SetAttr(out, rotation_str, R) < 0 || PyObject_SetAttr(out, translation_str, p) < 0) Py_CLEAR(out);
    }
    Py_XDECREF(R);
    Py_XDECREF(p);
    return out;
}

/* a new C-contiguous copy of the array ``a``: allocated and filled by memcpy when ``a`` is a C-contiguous float64
   array (every result an entry holds), else by numpy's copy */
static PyObject *copy_array(PyArrayObject *a) {
    if (PyArray_TYPE(a) != NPY_DOUBLE || !PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISNOTSWAPPED(a))
        return PyArray_NewCopy(a, NPY_CORDER);
    PyObject *out = PyArray_SimpleNew(PyArray_NDIM(a), PyArray_DIMS(a), NPY_DOUBLE);
    if (out != NULL) memcpy(PyArray_DATA((PyArrayObject *)out), PyArray_DATA(a), PyArray_NBYTES(a));
    return out;
}

static PyObject *post_result(Public *self, PyObject *r, PyObject *const *args) {
    PyObject *out;
    if (self->post == POST_PLACEMENT) {  /* row args[2] (an id the entry took) of placements (n, 3, 4) */
        PyArrayObject *a = (PyArrayObject *)r;
        Py_ssize_t row = PyLong_AsSsize_t(args[2]);
        if (!PyArray_Check(r) || PyArray_TYPE(a) != NPY_DOUBLE || !PyArray_IS_C_CONTIGUOUS(a) || PyArray_NDIM(a) != 3
            || PyArray_DIM(a, 1) != 3 || PyArray_DIM(a, 2) != 4 || row < 0 || row >= PyArray_DIM(a, 0)) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "the fast entry %S answered no placements", self->name);
            Py_DECREF(r);
            return NULL;
        }
        out = new_placement((PyTypeObject *)self->wrapper, (const double *)PyArray_DATA(a) + 12 * row);
        Py_DECREF(r);
        return out;
    }
    if ((self->post == POST_COPY || self->post == POST_WRAP) && !PyArray_Check(r)) {
        PyErr_Format(PyExc_TypeError, "the fast entry %S answered a %s, not an array", self->name, Py_TYPE(r)->tp_name);
        Py_DECREF(r);
        return NULL;
    }
    switch (self->post) {
    case POST_NONE:
        Py_DECREF(r);
        Py_RETURN_NONE;
    case POST_COPY:
        out = copy_array((PyArrayObject *)r);
        Py_DECREF(r);
        return out;
    case POST_WRAP: {
        PyObject *copy = copy_array((PyArrayObject *)r);
        Py_DECREF(r);
        if (copy == NULL) return NULL;
        PyTypeObject *type = (PyTypeObject *)self->wrapper;
        out = type->tp_alloc(type, 0);  /* ``cls.__new__(cls)``: the class has no __init__ to skip here */
        if (out != NULL && PyObject_SetAttr(out, vector_str, copy) < 0) Py_CLEAR(out);
        Py_DECREF(copy);
        return out;
    }
    default:
        return r;
    }
}

static PyObject *public_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Public *self = (Public *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t ndefaults = PyTuple_GET_SIZE(self->defaults), nconstants = PyTuple_GET_SIZE(self->constants);
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) || nargs > self->arity || nargs < self->arity - ndefaults
        || nargs <= self->holder)
        return PyObject_Vectorcall(self->implementation, args, nargsf, kwnames);
    PyObject *full[MAX_ARGUMENTS + 2];
    Py_ssize_t n = 0;
    if (self->arity + nconstants > MAX_ARGUMENTS + 2)
        return PyObject_Vectorcall(self->implementation, args, nargsf, kwnames);
    for (; n < nargs; ++n) full[n] = args[n];
    for (Py_ssize_t k = ndefaults - (self->arity - nargs); k < ndefaults; ++k)
        full[n++] = PyTuple_GET_ITEM(self->defaults, k);
    for (Py_ssize_t k = 0; k < nconstants; ++k) full[n++] = PyTuple_GET_ITEM(self->constants, k);
    PyObject *name = self->name;
    if (PyTuple_Check(name)) {  /* one entry per number of arguments, from arity - len(defaults); none filled in */
        name = PyTuple_GET_ITEM(name, nargs - (self->arity - ndefaults));
        if (name == Py_None) return PyObject_Vectorcall(self->implementation, args, nargsf, kwnames);
        n = nargs;
    }
    PyObject *entries = PyObject_GetAttr(args[self->holder], fast_entries_str);
    if (entries == NULL) {  /* not a model or data: the ordinary path names the mistake */
        PyErr_Clear();
        return PyObject_Vectorcall(self->implementation, args, nargsf, kwnames);
    }
    PyObject *entry = PyObject_GetAttr(entries, name);
    Py_DECREF(entries);
    if (entry == NULL) {
        PyErr_Clear();
        return PyObject_Vectorcall(self->implementation, args, nargsf, kwnames);
    }
    PyObject *r = PyObject_Vectorcall(entry, full, n, NULL);
    Py_DECREF(entry);
    if (r == NULL) return NULL;
    if (r == Py_None) {
        Py_DECREF(r);
        return PyObject_Vectorcall(self->implementation, args, nargsf, kwnames);
    }
    return post_result(self, r, full);
}

static int public_init(Public *self, PyObject *args, PyObject *kwds) {
    PyObject *name, *implementation, *defaults, *constants, *wrapper;
    Py_ssize_t holder, arity;
    int post;
    static char *keywords[] = {"name", "implementation", "holder", "arity", "defaults", "constants", "post",
                               "wrapper", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOnnO!O!iO", keywords, &name, &implementation, &holder, &arity,
                                     &PyTuple_Type, &defaults, &PyTuple_Type, &constants, &post, &wrapper))
        return -1;
    if (PyTuple_Check(name)) {
        Py_ssize_t count = PyTuple_GET_SIZE(name);
        int ok = count == PyTuple_GET_SIZE(defaults) + 1;
        for (Py_ssize_t k = 0; ok && k < count; ++k)
            ok = PyTuple_GET_ITEM(name, k) == Py_None || PyUnicode_CheckExact(PyTuple_GET_ITEM(name, k));
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "name: a str, or a tuple of len(defaults) + 1 str or None");
            return -1;
        }
        for (Py_ssize_t k = 0; k < count; ++k)
            if (PyTuple_GET_ITEM(name, k) != Py_None) PyUnicode_InternInPlace(&PyTuple_GET_ITEM(name, k));
    } else if (!PyUnicode_CheckExact(name)) {
        PyErr_SetString(PyExc_TypeError, "name: expected a str or a tuple");
        return -1;
    }
    if (!PyCallable_Check(implementation) || (holder != 0 && holder != 1) || post < POST_AS_IS || post > POST_PLACEMENT
        || (post >= POST_WRAP && !PyType_Check(wrapper)) || (post == POST_PLACEMENT && arity < 3)
        || PyTuple_GET_SIZE(defaults) > arity) {
        PyErr_SetString(PyExc_ValueError, "Public: a callable implementation, holder 0 or 1, post 0 to 4 (3, 4 "
                                          "with a wrapper class), at most arity defaults");
        return -1;
    }
    Py_INCREF(name);
    if (PyUnicode_CheckExact(name)) PyUnicode_InternInPlace(&name);
    Py_XSETREF(self->name, name);
    Py_XSETREF(self->implementation, Py_NewRef(implementation));
    Py_XSETREF(self->defaults, Py_NewRef(defaults));
    Py_XSETREF(self->constants, Py_NewRef(constants));
    Py_XSETREF(self->wrapper, Py_NewRef(wrapper));
    self->holder = holder, self->arity = arity, self->post = post;
    self->vectorcall = public_vectorcall;
    return 0;
}

#define PUBLIC_MEMBERS(X) X(name) X(implementation) X(defaults) X(constants) X(wrapper) X(dict)
GC_CALLABLE(public, Public, PUBLIC_MEMBERS, "a Public that was not initialised")

/* a function, not a method: read from a class, it is itself (as a staticmethod's function); so inspect and pydoc
   see a routine, and follow ``__wrapped__`` to the signature */
static PyObject *public_descr_get(PyObject *self, PyObject *obj, PyObject *type) { return Py_NewRef(self); }

static PyObject *public_repr(Public *self) {
    PyObject *module = self->dict ? PyDict_GetItemString(self->dict, "__module__") : NULL;
    PyObject *name = self->dict ? PyDict_GetItemString(self->dict, "__name__") : NULL;
    return PyUnicode_FromFormat("<function %S.%S>", module ? module : Py_None, name ? name : Py_None);
}

/* pickled by reference, as a function: ``module.name`` */
static PyObject *public_reduce(Public *self, PyObject *unused) {
    PyObject *qualname = self->dict ? PyDict_GetItemString(self->dict, "__qualname__") : NULL;
    if (qualname == NULL) {
        PyErr_SetString(PyExc_TypeError, "a Public without __qualname__ cannot be pickled");
        return NULL;
    }
    return Py_NewRef(qualname);
}

static PyMethodDef public_methods[] = {
    {"__reduce__", (PyCFunction)public_reduce, METH_NOARGS, "Pickled by reference, as a function."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef public_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const char public_doc[] =
    "Public(name, implementation, holder, arity, defaults, constants, post, wrapper)\n\n"
    "A public function as one C call: the entry ``args[holder].fast_entries.<name>`` called with the arguments,\n"
    "(``name`` a tuple: the entry of the call's number of arguments, from ``arity - len(defaults)``, none filled in)\n"
    "the omitted trailing ``defaults`` and the ``constants``; its answer as is (post 0), None (1), a copy (2),\n"
    "a copy in a new ``wrapper`` (3), or row ``args[2]`` of its placements (n, 3, 4) as a new ``wrapper`` with\n"
    "``rotation`` and ``translation`` (4); the ordinary ``implementation`` when it answers None or the call has\n"
    "keywords or another number of arguments (``arity`` positional parameters).";

static PyTypeObject PublicType = {
    GC_CALLABLE_SLOTS(public, Public),
    .tp_repr = (reprfunc)public_repr,
    .tp_methods = public_methods,
    .tp_getset = public_getset,
    .tp_descr_get = public_descr_get,
    .tp_dictoffset = offsetof(Public, dict),
};

/* ------------------------------------------------------------------------------------------- Step */
/* A Step is one simulator step as one C call: ``step(q, v, tau[, fext])`` with ``q`` an exact float64 ndarray of
 * nq (native byte order, C-contiguous, aligned), ``v``, ``tau`` and ``fext`` of nv (``fext`` None: the ``zeros``
 * it holds). It first checks its ``expect`` triples ``(dict, key, value)``: each ``dict[key]`` must be ``value``
 * itself (the simulator's state is the one it was built for); then allocates ``q_next`` and ``v_next``, calls its
 * body with the table and the six data addresses, the GIL released meanwhile (the kernel reads no Python object),
 * and on a kept step (status 0, or ``unconverged``: the step is kept, its solve stopped short) writes its
 * ``write`` triples ``dict[key] = value``, calls ``on_unconverged()`` after an unconverged one, and returns the new
 * tuple ``(q_next, v_next)``. Anything else (another argument, a state that changed, any other status of the
 * body) answers None: the caller takes its ordinary path, which converts the arguments, raises the named error,
 * or runs the step again. */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    body_function body;
    int64_t *table;
    PyObject *table_array;
    npy_intp nq, nv;
    PyObject *zeros;           /* float64 ndarray (nv,): fext None */
    PyObject *expect;          /* tuple of (dict, key, value) */
    PyObject *write;           /* tuple of (dict, key, value) */
    PyObject *on_unconverged;  /* callable or None */
    int64_t unconverged;
    PyObject *keep;
} Step;

static int triples_hold(PyObject *triples) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(triples); ++i) {
        PyObject *t = PyTuple_GET_ITEM(triples, i);
        PyObject *found = PyDict_GetItemWithError(PyTuple_GET_ITEM(t, 0), PyTuple_GET_ITEM(t, 1));
        if (found != PyTuple_GET_ITEM(t, 2)) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

static int triples_write(PyObject *triples) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(triples); ++i) {
        PyObject *t = PyTuple_GET_ITEM(triples, i);
        if (PyDict_SetItem(PyTuple_GET_ITEM(t, 0), PyTuple_GET_ITEM(t, 1), PyTuple_GET_ITEM(t, 2)) < 0) return -1;
    }
    return 0;
}

/* the data of ``obj`` if it is a vector float_array of ``n``, else NULL */
static inline void *vector_data(PyObject *obj, npy_intp n) {
    PyArrayObject *a = float_array(obj, 1);
    return a != NULL && PyArray_DIM(a, 0) == n ? PyArray_DATA(a) : NULL;
}

static PyObject *step_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Step *self = (Step *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int64_t values[6];
    void *q, *v, *tau, *fext;
    if ((kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) || nargs < 3 || nargs > 4) Py_RETURN_NONE;
    if ((q = vector_data(args[0], self->nq)) == NULL || (v = vector_data(args[1], self->nv)) == NULL
        || (tau = vector_data(args[2], self->nv)) == NULL)
        Py_RETURN_NONE;
    fext = nargs == 3 || args[3] == Py_None ? PyArray_DATA((PyArrayObject *)self->zeros) : vector_data(args[3], self->nv);
    if (fext == NULL || !triples_hold(self->expect)) Py_RETURN_NONE;
    PyObject *q_next = PyArray_EMPTY(1, &self->nq, NPY_DOUBLE, 0);
    PyObject *v_next = q_next ? PyArray_EMPTY(1, &self->nv, NPY_DOUBLE, 0) : NULL;
    PyObject *out = v_next ? PyTuple_New(2) : NULL;
    if (out == NULL) {
        Py_XDECREF(q_next);
        Py_XDECREF(v_next);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, q_next);
    PyTuple_SET_ITEM(out, 1, v_next);
    values[0] = (int64_t)(intptr_t)q, values[1] = (int64_t)(intptr_t)v, values[2] = (int64_t)(intptr_t)tau;
    values[3] = (int64_t)(intptr_t)fext;
    values[4] = (int64_t)(intptr_t)PyArray_DATA((PyArrayObject *)q_next);
    values[5] = (int64_t)(intptr_t)PyArray_DATA((PyArrayObject *)v_next);
    int64_t status;
    Py_BEGIN_ALLOW_THREADS
    status = self->body(self->table, values);
    Py_END_ALLOW_THREADS
    if (status != 0 && status != self->unconverged) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    if (triples_write(self->write) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (status == self->unconverged && self->on_unconverged != Py_None) {
        PyObject *r = PyObject_CallNoArgs(self->on_unconverged);
        if (r == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(r);
    }
    return out;
}

static int check_triples(PyObject *triples, const char *name) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(triples); ++i) {
        PyObject *t = PyTuple_GET_ITEM(triples, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 || !PyDict_Check(PyTuple_GET_ITEM(t, 0))) {
            PyErr_Format(PyExc_TypeError, "%s: expected a tuple of (dict, key, value) tuples", name);
            return -1;
        }
    }
    return 0;
}

static int step_init(Step *self, PyObject *args, PyObject *kwds) {
    unsigned long long body;
    long long unconverged;
    PyObject *table, *zeros, *expect, *write, *on_unconverged, *keep;
    static char *keywords[] = {"body", "table", "zeros", "expect", "write", "unconverged", "on_unconverged", "keep",
                               NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KO!O!O!O!LOO", keywords, &body, &PyArray_Type, &table,
                                     &PyArray_Type, &zeros, &PyTuple_Type, &expect, &PyTuple_Type, &write,
                                     &unconverged, &on_unconverged, &keep))
        return -1;
    PyArrayObject *t = (PyArrayObject *)table;
    if (body == 0 || PyArray_TYPE(t) != NPY_INT64 || !PyArray_ISCARRAY(t) || PyArray_NDIM(t) != 1
        || PyArray_SIZE(t) < 4 || float_array(zeros, 1) == NULL) {
        PyErr_SetString(PyExc_ValueError, "Step: a body address, an int64 table of at least 4 (kernel, context, nq, "
                                          "nv), a float64 vector of zeros");
        return -1;
    }
    if (check_triples(expect, "expect") < 0 || check_triples(write, "write") < 0) return -1;
    if (on_unconverged != Py_None && !PyCallable_Check(on_unconverged)) {
        PyErr_SetString(PyExc_TypeError, "on_unconverged: expected a callable or None");
        return -1;
    }
    int64_t *T = (int64_t *)PyArray_DATA(t);
    if (T[3] != PyArray_DIM((PyArrayObject *)zeros, 0) || T[2] < 0 || T[3] < 0) {
        PyErr_SetString(PyExc_ValueError, "zeros: expected nv (table[3]) zeros");
        return -1;
    }
    self->body = (body_function)(uintptr_t)body;
    self->table = T;
    self->nq = (npy_intp)T[2], self->nv = (npy_intp)T[3];
    self->unconverged = unconverged;
    Py_XSETREF(self->table_array, Py_NewRef(table));
    Py_XSETREF(self->zeros, Py_NewRef(zeros));
    Py_XSETREF(self->expect, Py_NewRef(expect));
    Py_XSETREF(self->write, Py_NewRef(write));
    Py_XSETREF(self->on_unconverged, Py_NewRef(on_unconverged));
    Py_XSETREF(self->keep, Py_NewRef(keep));
    self->vectorcall = step_vectorcall;
    return 0;
}

#define STEP_MEMBERS(X) X(table_array) X(zeros) X(expect) X(write) X(on_unconverged) X(keep)
GC_CALLABLE(step, Step, STEP_MEMBERS, "a Step that was not initialised")

static const char step_doc[] =
    "Step(body, table, zeros, expect, write, unconverged, on_unconverged, keep)\n\n"
    "One simulator step as one C call: ``step(q, v, tau[, fext])`` returns a new ``(q_next, v_next)``, or None for\n"
    "the ordinary path. ``body``: the address of the cfunc ``int64(int64 *table, int64 *values)``, ``values`` the\n"
    "data of q, v, tau, fext, q_next, v_next; ``table``: its int64 ndarray (kernel, context, nq, nv, ...);\n"
    "``zeros``: the (nv,) fext of None; ``expect``: (dict, key, value) triples that must hold (identity) before a\n"
    "call; ``write``: those written after a kept step (status 0 or ``unconverged``), after which an unconverged one\n"
    "calls ``on_unconverged()`` (or None); ``keep``: objects kept alive.";

static PyTypeObject StepType = {
    GC_CALLABLE_SLOTS(step, Step),
};

static struct PyModuleDef entry_module = {
    PyModuleDef_HEAD_INIT, "_entry",
    "rbda's fast entries: argument checks through the CPython and numpy C API around a compiled body.", -1, NULL,
};

PyMODINIT_FUNC PyInit__entry(void) {
    import_array();
    if (PyType_Ready(&EntryType) < 0 || PyType_Ready(&PublicType) < 0 || PyType_Ready(&StepType) < 0)
        return NULL;
    if ((fast_entries_str = PyUnicode_InternFromString("fast_entries")) == NULL
        || (vector_str = PyUnicode_InternFromString("vector")) == NULL
        || (rotation_str = PyUnicode_InternFromString("rotation")) == NULL
        || (translation_str = PyUnicode_InternFromString("translation")) == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&entry_module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Entry", (PyObject *)&EntryType) < 0
        || PyModule_AddObjectRef(m, "Public", (PyObject *)&PublicType) < 0
        || PyModule_AddObjectRef(m, "Step", (PyObject *)&StepType) < 0
        || PyModule_AddIntConstant(m, "VALUE_COLUMNS", VALUE_COLUMNS) < 0
        || PyModule_AddIntConstant(m, "VALUE_RESULT", VALUE_RESULT) < 0
        || PyModule_AddIntConstant(m, "VALUES", VALUES) < 0
        || PyModule_AddIntConstant(m, "STATUS_ORDINARY", STATUS_ORDINARY) < 0
        || PyModule_AddIntConstant(m, "STATUS_RESULT", STATUS_RESULT) < 0
        || PyModule_AddIntConstant(m, "STATUS_TRUE", STATUS_TRUE) < 0
        || PyModule_AddIntConstant(m, "STATUS_FALSE", STATUS_FALSE) < 0
        || PyModule_AddIntConstant(m, "STATUS_FLOAT", STATUS_FLOAT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
