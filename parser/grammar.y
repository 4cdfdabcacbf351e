/* grammar.y - the C11 + GNU + Work-Time C grammar, building the AST of ast.h.
 *
 * The lexer (lexer.l) has already removed __attribute__ and __extension__, turned
 * asm(...) into one ASM token and told typedef names (TYPEDEF_NAME) from other
 * identifiers through the symbol table. Declarators are entered into the symbol table
 * as soon as they are complete, so the next token is classified in the right scope.
 *
 * Declaration specifiers follow the shape used by Jourdan & Pottier's C11 grammar: a
 * typedef name can only be the one type specifier of a declaration, so after any type
 * specifier a TYPEDEF_NAME is a declarator ("typedef int T; { T T; }" works).
 *
 * Conflicts: exactly one, the dangling else (shift: 'else' binds to the nearest 'if').
 */
%code requires {
#include "ast.h"
#include "lex.h"
typedef struct Specs Specs;
typedef struct Dtor Dtor;
typedef struct Vec Vec;
typedef struct PList PList;
typedef struct FnCtx FnCtx;
}

%code provides {
int lex_token(YYSTYPE *lval, WtcLoc *lloc);
}

%code {
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "symtab.h"

/* Nested parentheses/statements beyond this make bison report "nesting too deep". */
#define YYMAXDEPTH 2000000
#define YYINITDEPTH 1000
#define DTOR_MAX_DERIVED 1000 /* pointers/arrays/functions in one declarator */

/* A rule's span runs from its first non-empty symbol to its last one. */
#define YYLLOC_DEFAULT(Cur, Rhs, N) loc_default(&(Cur), (Rhs), (N))

static void loc_default(WtcLoc *cur, const WtcLoc *rhs, int n);
static int yylex(YYSTYPE *lval, WtcLoc *lloc);
static void yyerror(WtcLoc *loc, const char *msg);

/* ---- semantic values ---------------------------------------------------- */

/* Declaration specifiers, accumulated left to right. */
struct Specs {
    Storage storage;
    bool thread_local, is_inline, is_noreturn, recursive;
    Span recursive_kw;
    Loc recursive_loc;
    int quals;
    int n_void, n_bool, n_char, n_short, n_int, n_long, n_signed, n_unsigned;
    int n_float, n_double, n_complex, n_int128;
    Type *named;   /* struct/union/enum, typedef name, typeof, _Atomic(T), _FloatN */
    Span span;
    Loc loc;
    Type *type;    /* the computed base type (cached) */
    int depth;     /* position on the specifier stack, when pushed */
};

/* A declarator under construction: the derived types wrap a hole where the base type
   of the declaration goes (see dtor_apply). */
struct Dtor {
    const char *name;
    Loc name_loc;
    Span name_span;
    Type *top;     /* outermost derived type, or NULL when the declarator is a name */
    Type **hole;   /* where the base type goes */
    int nderived;
};

/* A growable array of pointers. */
struct Vec {
    void **v;
    int n, cap;
};

/* A parameter list being built. */
struct PList {
    Param *head, *tail;
    bool variadic;
};

/* The function definition whose body is being parsed. */
struct FnCtx {
    FuncDef *fd;
    int level; /* its scope */
    Node *node;
};

static TranslationUnit *g_tu;
static Vec g_items;
static Specs **spec_stack;
static int spec_depth, spec_cap;
static bool depth_reported;
static bool recursive_noted; /* the note on 'recursive' as a keyword was shown */
static Node *g_cond; /* the cond: of the function whose body is being parsed, or NULL */
static Loc g_last_loc; /* of the last token read */

static Node *mk(NodeKind k, WtcLoc l);
static Node *mk_un(NodeKind k, WtcLoc l, Node *a);
static Node *mk_bin(NodeKind k, WtcLoc l, Loc op_loc, const char *op, Node *a, Node *b);
static Node *mk_ident(WtcLoc l, const char *name);
static Node *mk_lit(NodeKind k, WtcLoc l, const char *text);
static Node *mk_block(WtcLoc l, Vec *items);
static Node *seal(Node *n);
static Vec *vec_new(void);
static Vec *vec_push(Vec *v, void *p);
static Specs *specs_new(WtcLoc l);
static Specs *specs_merge(Specs *a, Specs *b, WtcLoc l);
static Specs *specs_storage(WtcLoc l, Storage sc);
static Specs *specs_qual(WtcLoc l, int q);
static Specs *specs_count(WtcLoc l, int which);
static Specs *specs_named(WtcLoc l, Type *t);
static Type *specs_type(Specs *s);
static void spec_push(Specs *s);
static void spec_pop(void);
static void spec_pop_to(int depth);
static Specs *spec_top(void);
static Dtor *dtor_name(WtcLoc l, const char *name);
static Dtor *dtor_abstract(void);
static Dtor *dtor_wrap(Dtor *d, Type *t, Type **inner_hole);
static Dtor *dtor_array(Dtor *d, Node *len);
static Dtor *dtor_func(Dtor *d, PList *pl);
static Dtor *dtor_pointer(Dtor *d, Type *outer, Type **inner_hole);
static Type *dtor_apply(Dtor *d, Type *base);
static Type *type_name_of(Specs *s, Dtor *d);
static Decl *declare(Specs *s, Dtor *d, WtcLoc l);
static Node *mk_declaration(WtcLoc l, Specs *s, Vec *decls);
static Param *mk_param(WtcLoc l, Specs *s, Dtor *d);
static PList *plist_add(PList *pl, Param *p);
static Member *mk_members(Specs *s, Dtor *d, Loc loc);
static Type *tag_ref(TypeKind k, const char *name, WtcLoc l);
static Type *tag_define(TypeKind k, const char *name, WtcLoc l);
static Type *tag_complete(Type *t, Member *m);
static Type *enum_type(const char *name);
static void declare_enumerator(WtcLoc l, const char *name, Node *value);
static FnCtx *begin_function(Specs *s, Dtor *d, WtcLoc l, WtcLoc dl);
static Type *typedef_use(const char *name);
static void vec_push_args(Node *n, Node *a);
static Node *end_function(FnCtx *fc, Clause *cl, WtcLoc clauses_loc, Node *body, WtcLoc l);
static Clause *mk_clause(ClauseKind k, WtcLoc l);
static Clause *clause_append(Clause *a, Clause *b);
static ClauseItem *mk_item(WtcLoc l, const char *name, Node *count, WtcLoc count_loc);
static Node *par_begin(WtcLoc l, const char *name, WtcLoc name_loc, Node *lo, Node *hi,
                       WtcLoc eq_loc, WtcLoc to_loc, WtcLoc do_loc);
static Node *mk_string(WtcLoc l, Node *prev, const char *text);
static Span sp(WtcLoc l);
static Type *typeof_type(WtcLoc l);
static Member *member_append(Member *a, Member *b);
}

%define api.pure full
%define api.location.type {WtcLoc}
%define parse.error custom
%define parse.lac full
%locations
%expect 1

%initial-action {
    @$.start = @$.end = 0;
    @$.empty = true;
    @$.loc = (Loc){.file = g_tu->path, .line = 1, .col = 1, .user = true};
}

%union {
    const char *str;
    Node *node;
    Type *type;
    Specs *specs;
    Dtor *dtor;
    Vec *vec;
    PList *plist;
    Param *param;
    Decl *decl;
    Member *member;
    Clause *clause;
    ClauseItem *item;
    FnCtx *fn;
    int ival;
}

%token <str> IDENT "identifier" TYPEDEF_NAME "type name"
%token <str> INT_LIT "integer constant" FLOAT_LIT "floating constant"
%token <str> CHAR_LIT "character constant" STRING_LIT "string literal"
%token PTR_OP "->" INC "++" DEC "--" LSHIFT "<<" RSHIFT ">>" LE "<=" GE ">=" EQ "==" NE "!="
%token ANDAND "&&" OROR "||" ELLIPSIS "..."
%token MUL_ASSIGN "*=" DIV_ASSIGN "/=" MOD_ASSIGN "%=" ADD_ASSIGN "+=" SUB_ASSIGN "-="
%token LSHIFT_ASSIGN "<<=" RSHIFT_ASSIGN ">>=" AND_ASSIGN "&=" XOR_ASSIGN "^=" OR_ASSIGN "|="
%token AUTO "auto" BREAK "break" CASE "case" CHAR "char" CONST "const" CONTINUE "continue"
%token DEFAULT "default" DO "do" DOUBLE "double" ELSE "else" ENUM "enum" EXTERN "extern"
%token FLOAT "float" FOR "for" GOTO "goto" IF "if" INLINE "inline" INT "int" LONG "long"
%token REGISTER "register" RESTRICT "restrict" RETURN "return" SHORT "short"
%token SIGNED "signed" SIZEOF "sizeof" STATIC "static" STRUCT "struct" SWITCH "switch"
%token TYPEDEF "typedef" UNION "union" UNSIGNED "unsigned" VOID "void" VOLATILE "volatile"
%token WHILE "while" ALIGNAS "_Alignas" ALIGNOF "_Alignof" ATOMIC "_Atomic"
%token ATOMIC_SPEC "_Atomic(" BOOL "_Bool" COMPLEX "_Complex" GENERIC "_Generic"
%token NORETURN "_Noreturn" STATIC_ASSERT "_Static_assert" THREAD_LOCAL "_Thread_local"
%token INT128 "__int128" <str> FLOATN "_FloatN" TYPEOF "typeof" LABEL_KW "__label__"
%token REAL "__real__" IMAG "__imag__" BUILTIN_VA_ARG "__builtin_va_arg"
%token BUILTIN_OFFSETOF "__builtin_offsetof" BUILTIN_TYPES_COMPAT "__builtin_types_compatible_p"
%token ASM "asm" AUTO_TYPE "__auto_type"
%token RECURSIVE "recursive" PAR "par" TO "to"
%token IN_KW "in" OUT_KW "out" COND_KW "cond" MODE_KW "mode"

%type <node> primary_expression postfix_expression unary_expression cast_expression
%type <node> multiplicative_expression additive_expression shift_expression
%type <node> relational_expression equality_expression and_expression
%type <node> exclusive_or_expression inclusive_or_expression logical_and_expression
%type <node> logical_or_expression conditional_expression assignment_expression
%type <node> expression constant_expression expression_opt string generic_selection
%type <node> builtin_call offsetof_member initializer compound_statement statement
%type <node> labeled_statement expression_statement selection_statement
%type <node> iteration_statement jump_statement par_statement block_item declaration
%type <node> external_declaration function_definition static_assert_declaration
%type <node> for_init function_body par_head
%type <vec> argument_list initializer_list block_items init_declarator_list
%type <vec> implicit_declarator_list
%type <vec> generic_assoc_list
%type <specs> declaration_specifiers ds_notype ds_typed ds_typedef ds_other
%type <specs> type_specifier decl_specs_pushed alignment_specifier implicit_specs_pushed
%type <specs> no_specs_pushed
%type <type> type_name struct_or_union_specifier enum_specifier struct_head enum_head
%type <node> array_size
%type <ival> struct_or_union type_qualifier type_qualifier_list scope_open proto_open
%type <dtor> declarator direct_declarator nested_declarator nested_direct
%type <dtor> implicit_declarator implicit_direct
%type <dtor> abstract_declarator direct_abstract_declarator pointer
%type <plist> parameter_type_list parameter_list
%type <param> parameter_declaration
%type <decl> init_declarator declarator_declared implicit_init_declarator implicit_declared
%type <member> struct_declaration_list struct_declaration struct_declarator_list
%type <member> struct_declarator
%type <clause> fn_clauses clause
%type <item> clause_items clause_item
%type <fn> fn_head
%type <str> assign_op any_ident

%destructor { sym_pop_to($$ - 1); } scope_open proto_open
%destructor { sym_pop_to($$->level - 1); } fn_head
%destructor { spec_pop_to($$->depth - 1); } decl_specs_pushed implicit_specs_pushed no_specs_pushed
%destructor { sym_pop_to(sym_level() - 1); } par_head

%%

translation_unit
    : %empty
    | translation_unit external_declaration   { if ($2) vec_push(&g_items, $2); }
    ;

external_declaration
    : function_definition
    | declaration
    | ';'                       { $$ = mk(ND_EMPTY, @$); }
    | ASM ';'                   { $$ = mk(ND_ASM, @$); }
    | error ';'                 { $$ = NULL; lex_reset_brackets(); }
    | error '}'                 { $$ = NULL; lex_reset_brackets(); }
    ;

/* ---- expressions ---------------------------------------------------------- */

primary_expression
    : IDENT                     { $$ = mk_ident(@$, $1); }
    | INT_LIT                   { $$ = mk_lit(ND_INT_LIT, @$, $1); }
    | FLOAT_LIT                 { $$ = mk_lit(ND_FLOAT_LIT, @$, $1); }
    | CHAR_LIT                  { $$ = mk_lit(ND_CHAR_LIT, @$, $1); }
    | string
    | '(' expression ')'        { $$ = $2; }
    | '(' compound_statement ')' { $$ = mk(ND_STMT_EXPR, @$); $$->body = $2; seal($$); }
    | generic_selection
    | builtin_call
    ;

string
    : STRING_LIT                { $$ = mk_string(@$, NULL, $1); }
    | string STRING_LIT         { $$ = mk_string(@$, $1, $2); }
    ;

generic_selection
    : GENERIC '(' assignment_expression ',' generic_assoc_list ')'
                                { $$ = mk_un(ND_GENERIC, @$, $3); }
    ;

generic_assoc_list
    : type_name ':' assignment_expression        { $$ = vec_new(); }
    | DEFAULT ':' assignment_expression          { $$ = vec_new(); }
    | generic_assoc_list ',' type_name ':' assignment_expression   { $$ = $1; }
    | generic_assoc_list ',' DEFAULT ':' assignment_expression     { $$ = $1; }
    ;

builtin_call
    : BUILTIN_VA_ARG '(' assignment_expression ',' type_name ')'
            { $$ = mk(ND_BUILTIN, @$); $$->name = "__builtin_va_arg"; $$->type = $5;
              vec_push_args($$, $3); }
    | BUILTIN_OFFSETOF '(' type_name ',' offsetof_member ')'
            { $$ = mk(ND_BUILTIN, @$); $$->name = "__builtin_offsetof"; $$->type = $3; }
    | BUILTIN_TYPES_COMPAT '(' type_name ',' type_name ')'
            { $$ = mk(ND_BUILTIN, @$); $$->name = "__builtin_types_compatible_p"; $$->type = $3; }
    ;

offsetof_member
    : any_ident                         { $$ = NULL; }
    | offsetof_member '.' any_ident     { $$ = NULL; }
    | offsetof_member '[' expression ']' { $$ = NULL; }
    ;

any_ident
    : IDENT
    | TYPEDEF_NAME
    ;

postfix_expression
    : primary_expression
    | postfix_expression '[' expression ']'     { $$ = mk_bin(ND_INDEX, @$, @2.loc, NULL, $1, $3); $$->loc = $1->loc; }
    | postfix_expression '(' ')'                { $$ = mk_un(ND_CALL, @$, $1); }
    | postfix_expression '(' argument_list ')'
            { $$ = mk_un(ND_CALL, @$, $1); $$->args = (Node **)$3->v; $$->nargs = $3->n;
              for (int i = 0; i < $3->n; i++) if ($$->args[i]->depth >= $$->depth) $$->depth = $$->args[i]->depth + 1;
              seal($$); }
    | postfix_expression '.' any_ident          { $$ = mk_un(ND_MEMBER, @$, $1); $$->name = $3; }
    | postfix_expression PTR_OP any_ident       { $$ = mk_un(ND_PTR_MEMBER, @$, $1); $$->name = $3; }
    | postfix_expression INC                    { $$ = mk_un(ND_POST_INC, @$, $1); }
    | postfix_expression DEC                    { $$ = mk_un(ND_POST_DEC, @$, $1); }
    | '(' type_name ')' '{' initializer_list '}'
            { $$ = mk(ND_COMPOUND_LIT, @$); $$->type = $2; $$->rhs = mk(ND_INIT_LIST, @4);
              $$->rhs->span.end = @6.end; $$->rhs->args = (Node **)$5->v; $$->rhs->nargs = $5->n; }
    | '(' type_name ')' '{' initializer_list ',' '}'
            { $$ = mk(ND_COMPOUND_LIT, @$); $$->type = $2; $$->rhs = mk(ND_INIT_LIST, @4);
              $$->rhs->span.end = @7.end; $$->rhs->args = (Node **)$5->v; $$->rhs->nargs = $5->n; }
    | '(' type_name ')' '{' '}'
            { $$ = mk(ND_COMPOUND_LIT, @$); $$->type = $2; $$->rhs = mk(ND_INIT_LIST, @4);
              $$->rhs->span.end = @5.end; }
    ;

argument_list
    : assignment_expression                     { $$ = vec_push(vec_new(), $1); }
    | argument_list ',' assignment_expression   { $$ = vec_push($1, $3); }
    ;

unary_expression
    : postfix_expression
    | INC unary_expression          { $$ = mk_un(ND_PRE_INC, @$, $2); }
    | DEC unary_expression          { $$ = mk_un(ND_PRE_DEC, @$, $2); }
    | '&' cast_expression           { $$ = mk_un(ND_ADDR, @$, $2); }
    | '*' cast_expression           { $$ = mk_un(ND_DEREF, @$, $2); }
    | '+' cast_expression           { $$ = mk_un(ND_PLUS, @$, $2); }
    | '-' cast_expression           { $$ = mk_un(ND_NEG, @$, $2); }
    | '~' cast_expression           { $$ = mk_un(ND_BITNOT, @$, $2); }
    | '!' cast_expression           { $$ = mk_un(ND_NOT, @$, $2); }
    | REAL cast_expression          { $$ = mk_un(ND_REAL, @$, $2); }
    | IMAG cast_expression          { $$ = mk_un(ND_IMAG, @$, $2); }
    | SIZEOF unary_expression       { $$ = mk_un(ND_SIZEOF_EXPR, @$, $2); }
    | SIZEOF '(' type_name ')'      { $$ = mk(ND_SIZEOF_TYPE, @$); $$->type = $3; }
    | ALIGNOF unary_expression      { $$ = mk_un(ND_ALIGNOF_EXPR, @$, $2); }
    | ALIGNOF '(' type_name ')'     { $$ = mk(ND_ALIGNOF_TYPE, @$); $$->type = $3; }
    | ANDAND any_ident              { $$ = mk(ND_LABEL_ADDR, @$); $$->name = $2; }
    ;

cast_expression
    : unary_expression
    | '(' type_name ')' cast_expression     { $$ = mk_un(ND_CAST, @$, $4); $$->type = $2; }
    ;

multiplicative_expression
    : cast_expression
    | multiplicative_expression '*' cast_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "*", $1, $3); }
    | multiplicative_expression '/' cast_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "/", $1, $3); }
    | multiplicative_expression '%' cast_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "%", $1, $3); }
    ;

additive_expression
    : multiplicative_expression
    | additive_expression '+' multiplicative_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "+", $1, $3); }
    | additive_expression '-' multiplicative_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "-", $1, $3); }
    ;

shift_expression
    : additive_expression
    | shift_expression LSHIFT additive_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "<<", $1, $3); }
    | shift_expression RSHIFT additive_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, ">>", $1, $3); }
    ;

relational_expression
    : shift_expression
    | relational_expression '<' shift_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "<", $1, $3); }
    | relational_expression '>' shift_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, ">", $1, $3); }
    | relational_expression LE shift_expression  { $$ = mk_bin(ND_BINARY, @$, @2.loc, "<=", $1, $3); }
    | relational_expression GE shift_expression  { $$ = mk_bin(ND_BINARY, @$, @2.loc, ">=", $1, $3); }
    ;

equality_expression
    : relational_expression
    | equality_expression EQ relational_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "==", $1, $3); }
    | equality_expression NE relational_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "!=", $1, $3); }
    ;

and_expression
    : equality_expression
    | and_expression '&' equality_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "&", $1, $3); }
    ;

exclusive_or_expression
    : and_expression
    | exclusive_or_expression '^' and_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "^", $1, $3); }
    ;

inclusive_or_expression
    : exclusive_or_expression
    | inclusive_or_expression '|' exclusive_or_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "|", $1, $3); }
    ;

logical_and_expression
    : inclusive_or_expression
    | logical_and_expression ANDAND inclusive_or_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "&&", $1, $3); }
    ;

logical_or_expression
    : logical_and_expression
    | logical_or_expression OROR logical_and_expression { $$ = mk_bin(ND_BINARY, @$, @2.loc, "||", $1, $3); }
    ;

conditional_expression
    : logical_or_expression
    | logical_or_expression '?' expression ':' conditional_expression
            { $$ = mk(ND_COND, @$); $$->cond = $1; $$->then = $3; $$->els = $5; seal($$); }
    | logical_or_expression '?' ':' conditional_expression
            { $$ = mk(ND_COND, @$); $$->cond = $1; $$->els = $4; seal($$); }
    ;

assignment_expression
    : conditional_expression
    | unary_expression assign_op assignment_expression
            { $$ = mk_bin(ND_ASSIGN, @$, @2.loc, $2, $1, $3); }
    ;

assign_op
    : '='           { $$ = "="; }
    | MUL_ASSIGN    { $$ = "*="; }
    | DIV_ASSIGN    { $$ = "/="; }
    | MOD_ASSIGN    { $$ = "%="; }
    | ADD_ASSIGN    { $$ = "+="; }
    | SUB_ASSIGN    { $$ = "-="; }
    | LSHIFT_ASSIGN { $$ = "<<="; }
    | RSHIFT_ASSIGN { $$ = ">>="; }
    | AND_ASSIGN    { $$ = "&="; }
    | XOR_ASSIGN    { $$ = "^="; }
    | OR_ASSIGN     { $$ = "|="; }
    ;

expression
    : assignment_expression
    | expression ',' assignment_expression { $$ = mk_bin(ND_COMMA, @$, @2.loc, NULL, $1, $3); }
    ;

expression_opt
    : %empty        { $$ = NULL; }
    | expression
    ;

constant_expression
    : conditional_expression
    ;

/* ---- declarations --------------------------------------------------------- */

declaration
    : decl_specs_pushed ';'
            { $$ = mk_declaration(@$, $1, NULL); spec_pop(); }
    | decl_specs_pushed init_declarator_list ';'
            { $$ = mk_declaration(@$, $1, $2); spec_pop(); }
    | implicit_specs_pushed implicit_declarator_list ';'
            { $$ = mk_declaration(@$, $1, $2); spec_pop(); }
    | static_assert_declaration
    | LABEL_KW label_list ';'   { $$ = mk(ND_DECLARATION, @$); }
    ;

label_list
    : any_ident
    | label_list ',' any_ident
    ;

static_assert_declaration
    : STATIC_ASSERT '(' constant_expression ',' string ')' ';'
                                { $$ = mk_un(ND_STATIC_ASSERT, @$, $3); }
    | STATIC_ASSERT '(' constant_expression ')' ';'
                                { $$ = mk_un(ND_STATIC_ASSERT, @$, $3); }
    ;

decl_specs_pushed
    : declaration_specifiers    { spec_push($1); $$ = $1; }
    ;

/* Implicit int (gnu11 accepts it with a warning: "static x = 3;", "register r;"):
   specifiers without a type, then a declarator that cannot start with a typedef name
   (after "const", a typedef name is the type). */
implicit_specs_pushed
    : ds_notype                 { spec_push($1); $$ = $1; }
    ;

implicit_declarator_list
    : implicit_init_declarator                          { $$ = vec_push(vec_new(), $1); }
    | implicit_declarator_list ',' init_declarator      { $$ = vec_push($1, $3); }
    ;

implicit_init_declarator
    : implicit_declared
    | implicit_declared '=' initializer
            { $$ = $1; $$->init = $3; $$->span.end = @3.end;
              if ($$->kind == DK_VAR && $$->is_global) $$->is_defined = true; }
    ;

implicit_declared
    : implicit_declarator       { $$ = declare(spec_top(), $1, @$); }
    | implicit_declarator ASM   { $$ = declare(spec_top(), $1, @$); }
    ;

implicit_declarator
    : pointer direct_declarator         { $$ = dtor_pointer($2, $1->top, $1->hole); }
    | implicit_direct
    ;

implicit_direct
    : IDENT                                         { $$ = dtor_name(@$, $1); }
    | '(' nested_declarator ')'                     { $$ = $2; }
    | implicit_direct '[' array_size ']'            { $$ = dtor_array($1, $3); }
    | implicit_direct proto_open parameter_type_list ')'
                                                    { sym_pop_to($2 - 1); $$ = dtor_func($1, $3); }
    | implicit_direct proto_open ')'                { sym_pop_to($2 - 1); $$ = dtor_func($1, NULL); }
    ;

/* Specifiers with a typedef name as the type, or with keyword type specifiers, or
   with none yet (storage classes, qualifiers, function specifiers). */
declaration_specifiers
    : ds_typed
    | ds_typedef
    ;

ds_notype
    : ds_other
    | ds_notype ds_other                { $$ = specs_merge($1, $2, @$); }
    ;

ds_typedef
    : TYPEDEF_NAME                      { $$ = specs_named(@$, NULL); $$->named = typedef_use($1); }
    | ds_notype TYPEDEF_NAME            { $$ = specs_merge($1, specs_named(@2, typedef_use($2)), @$); }
    | ds_typedef ds_other               { $$ = specs_merge($1, $2, @$); }
    ;

ds_typed
    : type_specifier
    | ds_notype type_specifier          { $$ = specs_merge($1, $2, @$); }
    | ds_typed type_specifier           { $$ = specs_merge($1, $2, @$); }
    | ds_typed ds_other                 { $$ = specs_merge($1, $2, @$); }
    ;

ds_other
    : TYPEDEF           { $$ = specs_storage(@$, SC_TYPEDEF); }
    | EXTERN            { $$ = specs_storage(@$, SC_EXTERN); }
    | STATIC            { $$ = specs_storage(@$, SC_STATIC); }
    | AUTO              { $$ = specs_storage(@$, SC_AUTO); }
    | REGISTER          { $$ = specs_storage(@$, SC_REGISTER); }
    | THREAD_LOCAL      { $$ = specs_new(@$); $$->thread_local = true; }
    | type_qualifier    { $$ = specs_qual(@$, $1); }
    | INLINE            { $$ = specs_new(@$); $$->is_inline = true; }
    | NORETURN          { $$ = specs_new(@$); $$->is_noreturn = true; }
    | RECURSIVE         { $$ = specs_new(@$); $$->recursive = true; $$->recursive_kw = sp(@$);
                          $$->recursive_loc = @$.loc; }
    | alignment_specifier
    ;

alignment_specifier
    : ALIGNAS '(' type_name ')'         { $$ = specs_new(@$); }
    | ALIGNAS '(' constant_expression ')' { $$ = specs_new(@$); }
    ;

type_specifier
    : VOID          { $$ = specs_count(@$, VOID); }
    | CHAR          { $$ = specs_count(@$, CHAR); }
    | SHORT         { $$ = specs_count(@$, SHORT); }
    | INT           { $$ = specs_count(@$, INT); }
    | LONG          { $$ = specs_count(@$, LONG); }
    | FLOAT         { $$ = specs_count(@$, FLOAT); }
    | DOUBLE        { $$ = specs_count(@$, DOUBLE); }
    | SIGNED        { $$ = specs_count(@$, SIGNED); }
    | UNSIGNED      { $$ = specs_count(@$, UNSIGNED); }
    | BOOL          { $$ = specs_count(@$, BOOL); }
    | COMPLEX       { $$ = specs_count(@$, COMPLEX); }
    | INT128        { $$ = specs_count(@$, INT128); }
    | FLOATN        { Type *t = type_new(TY_FLOATN); t->name = $1; $$ = specs_named(@$, t); }
    | struct_or_union_specifier { $$ = specs_named(@$, $1); }
    | enum_specifier            { $$ = specs_named(@$, $1); }
    | TYPEOF '(' expression ')' { $$ = specs_named(@$, typeof_type(@$)); }
    | AUTO_TYPE                 { $$ = specs_named(@$, typeof_type(@$)); }
    | TYPEOF '(' type_name ')'  { $$ = specs_named(@$, typeof_type(@$)); }
    | ATOMIC_SPEC '(' type_name ')'
            { Type *t = type_new(TY_TYPEDEF); *t = *$3; t->quals |= Q_ATOMIC; $$ = specs_named(@$, t); }
    ;

type_qualifier
    : CONST         { $$ = Q_CONST; }
    | VOLATILE      { $$ = Q_VOLATILE; }
    | RESTRICT      { $$ = Q_RESTRICT; }
    | ATOMIC        { $$ = Q_ATOMIC; }
    ;

type_qualifier_list
    : type_qualifier
    | type_qualifier_list type_qualifier    { $$ = $1 | $2; }
    ;

struct_or_union
    : STRUCT        { $$ = TY_STRUCT; }
    | UNION         { $$ = TY_UNION; }
    ;

struct_or_union_specifier
    : struct_head struct_declaration_list '}'   { $$ = tag_complete($1, $2); }
    | struct_head '}'                           { $$ = tag_complete($1, NULL); }
    | struct_or_union any_ident                 { $$ = tag_ref($1, $2, @$); }
    ;

struct_head
    : struct_or_union any_ident '{'             { $$ = tag_define($1, $2, @$); }
    | struct_or_union '{'                       { $$ = tag_define($1, NULL, @$); }
    ;

struct_declaration_list
    : struct_declaration
    | struct_declaration_list struct_declaration { $$ = member_append($1, $2); }
    ;

struct_declaration
    : decl_specs_pushed struct_declarator_list ';'  { (void)$1; $$ = $2; spec_pop(); }
    | decl_specs_pushed ';'                 { $$ = mk_members($1, NULL, @1.loc); spec_pop(); }
    | static_assert_declaration             { $$ = NULL; }
    | ';'                                   { $$ = NULL; }
    ;

struct_declarator_list
    : struct_declarator
    | struct_declarator_list ',' struct_declarator  { $$ = member_append($1, $3); }
    ;

struct_declarator
    : declarator                            { $$ = mk_members(spec_top(), $1, $1->name_loc); }
    | ':' constant_expression               { $$ = NULL; }
    | declarator ':' constant_expression    { $$ = mk_members(spec_top(), $1, $1->name_loc);
                                              $$->bitfield = true; }
    ;

enum_specifier
    : enum_head enumerator_list '}'         { $$ = $1; }
    | enum_head enumerator_list ',' '}'     { $$ = $1; }
    | ENUM any_ident                        { $$ = enum_type($2); }
    ;

enum_head
    : ENUM '{'                              { $$ = enum_type(NULL); }
    | ENUM any_ident '{'                    { $$ = enum_type($2); }
    ;

enumerator_list
    : enumerator
    | enumerator_list ',' enumerator
    ;

enumerator
    : any_ident                             { declare_enumerator(@1, $1, NULL); }
    | any_ident '=' constant_expression     { declare_enumerator(@1, $1, $3); }
    ;

init_declarator_list
    : init_declarator                           { $$ = vec_push(vec_new(), $1); }
    | init_declarator_list ',' init_declarator  { $$ = vec_push($1, $3); }
    ;

init_declarator
    : declarator_declared
    | declarator_declared '=' initializer
            { $$ = $1; $$->init = $3; $$->span.end = @3.end;
              if ($$->kind == DK_VAR && $$->is_global) $$->is_defined = true; }
    ;

/* The declared name is visible from the end of its declarator on. */
declarator_declared
    : declarator                { $$ = declare(spec_top(), $1, @$); }
    | declarator ASM            { $$ = declare(spec_top(), $1, @$); }
    ;

/* Declarators. Inside parentheses the name must be an IDENT, which keeps
   "int f(T)" (T a typedef name) an unnamed parameter of type T. */
declarator
    : pointer direct_declarator         { $$ = dtor_pointer($2, $1->top, $1->hole); }
    | direct_declarator
    ;

direct_declarator
    : any_ident                                     { $$ = dtor_name(@$, $1); }
    | '(' nested_declarator ')'                     { $$ = $2; }
    | direct_declarator '[' array_size ']'          { $$ = dtor_array($1, $3); }
    | direct_declarator proto_open parameter_type_list ')'
                                                    { sym_pop_to($2 - 1); $$ = dtor_func($1, $3); }
    | direct_declarator proto_open ')'              { sym_pop_to($2 - 1); $$ = dtor_func($1, NULL); }
    ;

nested_declarator
    : pointer nested_direct             { $$ = dtor_pointer($2, $1->top, $1->hole); }
    | nested_direct
    ;

nested_direct
    : IDENT                                         { $$ = dtor_name(@$, $1); }
    | '(' nested_declarator ')'                     { $$ = $2; }
    | nested_direct '[' array_size ']'              { $$ = dtor_array($1, $3); }
    | nested_direct proto_open parameter_type_list ')'
                                                    { sym_pop_to($2 - 1); $$ = dtor_func($1, $3); }
    | nested_direct proto_open ')'                  { sym_pop_to($2 - 1); $$ = dtor_func($1, NULL); }
    ;

proto_open
    : '('                       { $$ = sym_push_scope(true); }
    ;

array_size
    : %empty                                        { $$ = NULL; }
    | assignment_expression                         { $$ = $1; }
    | '*'                                           { $$ = NULL; }
    | type_qualifier_list '*'                       { $$ = NULL; }
    | type_qualifier_list                           { $$ = NULL; }
    | type_qualifier_list assignment_expression     { $$ = $2; }
    | STATIC assignment_expression                  { $$ = $2; }
    | STATIC type_qualifier_list assignment_expression { $$ = $3; }
    | type_qualifier_list STATIC assignment_expression { $$ = $3; }
    ;

pointer
    : '*'                               { $$ = dtor_wrap(NULL, type_new(TY_PTR), NULL); }
    | '*' type_qualifier_list           { $$ = dtor_wrap(NULL, type_new(TY_PTR), NULL); $$->top->quals = $2; }
    | pointer '*'                       { $$ = dtor_wrap($1, type_new(TY_PTR), NULL); }
    | pointer '*' type_qualifier_list   { $$ = dtor_wrap($1, type_new(TY_PTR), NULL); $$->top->quals = $3; }
    ;

parameter_type_list
    : parameter_list
    | parameter_list ',' ELLIPSIS       { $$ = $1; $$->variadic = true; }
    ;

parameter_list
    : parameter_declaration                     { $$ = plist_add(NULL, $1); }
    | parameter_list ',' parameter_declaration  { $$ = plist_add($1, $3); }
    ;

parameter_declaration
    : declaration_specifiers declarator             { $$ = mk_param(@$, $1, $2); }
    | ds_notype implicit_declarator                 { $$ = mk_param(@$, $1, $2); }
    | declaration_specifiers abstract_declarator    { $$ = mk_param(@$, $1, $2); }
    | declaration_specifiers                        { $$ = mk_param(@$, $1, NULL); }
    ;

type_name
    : declaration_specifiers                        { $$ = type_name_of($1, NULL); }
    | declaration_specifiers abstract_declarator    { $$ = type_name_of($1, $2); }
    ;

abstract_declarator
    : pointer                                       { $$ = dtor_pointer(dtor_abstract(), $1->top, $1->hole); }
    | pointer direct_abstract_declarator            { $$ = dtor_pointer($2, $1->top, $1->hole); }
    | direct_abstract_declarator
    ;

direct_abstract_declarator
    : '(' abstract_declarator ')'                   { $$ = $2; }
    | '[' array_size ']'                            { $$ = dtor_array(dtor_abstract(), $2); }
    | direct_abstract_declarator '[' array_size ']' { $$ = dtor_array($1, $3); }
    | proto_open parameter_type_list ')'            { sym_pop_to($1 - 1); $$ = dtor_func(dtor_abstract(), $2); }
    | proto_open ')'                                { sym_pop_to($1 - 1); $$ = dtor_func(dtor_abstract(), NULL); }
    | direct_abstract_declarator proto_open parameter_type_list ')'
                                                    { sym_pop_to($2 - 1); $$ = dtor_func($1, $3); }
    | direct_abstract_declarator proto_open ')'     { sym_pop_to($2 - 1); $$ = dtor_func($1, NULL); }
    ;

initializer
    : assignment_expression
    | '{' initializer_list '}'
            { $$ = mk(ND_INIT_LIST, @$); $$->args = (Node **)$2->v; $$->nargs = $2->n; }
    | '{' initializer_list ',' '}'
            { $$ = mk(ND_INIT_LIST, @$); $$->args = (Node **)$2->v; $$->nargs = $2->n; }
    | '{' '}'                   { $$ = mk(ND_INIT_LIST, @$); }
    ;

initializer_list
    : initializer                                   { $$ = vec_push(vec_new(), $1); }
    | designation initializer                       { $$ = vec_push(vec_new(), $2); }
    | initializer_list ',' initializer              { $$ = vec_push($1, $3); }
    | initializer_list ',' designation initializer  { $$ = vec_push($1, $4); }
    ;

/* GNU also keeps the obsolete forms "[2] 7" (no '=') and "x: 1". */
designation
    : designator_list '='
    | array_designator
    | any_ident ':'
    ;

designator_list
    : designator
    | designator_list designator
    ;

designator
    : array_designator
    | '.' any_ident
    ;

array_designator
    : '[' constant_expression ']'
    | '[' constant_expression ELLIPSIS constant_expression ']'
    ;

/* ---- statements ----------------------------------------------------------- */

statement
    : labeled_statement
    | compound_statement
    | expression_statement
    | selection_statement
    | iteration_statement
    | jump_statement
    | par_statement
    | ASM ';'                   { $$ = mk(ND_ASM, @$); }
    ;

labeled_statement
    : IDENT ':' statement       { $$ = mk(ND_LABEL, @$); $$->name = $1; $$->body = $3; seal($$); }
    | TYPEDEF_NAME ':' statement    /* labels have a name space of their own */
            { $$ = mk(ND_LABEL, @$); $$->name = $1; $$->body = $3; seal($$); }
    | CASE constant_expression ':' statement
            { $$ = mk_un(ND_CASE, @$, $2); $$->body = $4; seal($$); }
    | CASE constant_expression ELLIPSIS constant_expression ':' statement
            { $$ = mk_bin(ND_CASE, @$, @1.loc, NULL, $2, $4); $$->body = $6; seal($$); }
    | DEFAULT ':' statement     { $$ = mk(ND_DEFAULT, @$); $$->body = $3; seal($$); }
    ;

compound_statement
    : '{' scope_open block_items '}'
            { sym_pop_to($2 - 1); $$ = mk_block(@$, $3); }
    | '{' scope_open block_items error '}'
            { sym_pop_to($2 - 1); $$ = mk_block(@$, $3); }
    ;

scope_open
    : %empty                    { $$ = sym_push_scope(false); }
    ;

block_items
    : %empty                    { $$ = vec_new(); }
    | block_items block_item    { $$ = $2 ? vec_push($1, $2) : $1; }
    ;

block_item
    : declaration
    | statement
    | error ';'                 { $$ = NULL; }
    ;

expression_statement
    : ';'                       { $$ = mk(ND_NULL_STMT, @$); }
    | expression ';'            { $$ = mk_un(ND_EXPR_STMT, @$, $1); }
    ;

selection_statement
    : IF '(' expression ')' statement
            { $$ = mk(ND_IF, @$); $$->cond = $3; $$->then = $5; seal($$); }
    | IF '(' expression ')' statement ELSE statement
            { $$ = mk(ND_IF, @$); $$->cond = $3; $$->then = $5; $$->els = $7; seal($$); }
    | SWITCH '(' expression ')' statement
            { $$ = mk(ND_SWITCH, @$); $$->cond = $3; $$->body = $5; seal($$); }
    ;

iteration_statement
    : WHILE '(' expression ')' statement
            { $$ = mk(ND_WHILE, @$); $$->cond = $3; $$->body = $5; seal($$); }
    | DO statement WHILE '(' expression ')' ';'
            { $$ = mk(ND_DO, @$); $$->body = $2; $$->cond = $5; seal($$); }
    | FOR '(' scope_open for_init expression_opt ';' expression_opt ')' statement
            { sym_pop_to($3 - 1); $$ = mk(ND_FOR, @$); $$->init = $4; $$->cond = $5;
              $$->inc = $7; $$->body = $9; seal($$); }
    ;

for_init
    : expression_statement      { $$ = $1->kind == ND_NULL_STMT ? NULL : $1; }
    | declaration
    ;

jump_statement
    : GOTO any_ident ';'        { $$ = mk(ND_GOTO, @$); $$->name = $2; }
    | GOTO '*' expression ';'   { $$ = mk_un(ND_GOTO, @$, $3); }
    | CONTINUE ';'              { $$ = mk(ND_CONTINUE, @$); }
    | BREAK ';'                 { $$ = mk(ND_BREAK, @$); }
    | RETURN ';'                { $$ = mk(ND_RETURN, @$); }
    | RETURN expression ';'     { $$ = mk_un(ND_RETURN, @$, $2); }
    ;

/* par i = lo to hi do statement  -  the index is an int local to the body. */
par_statement
    : par_head statement
            { sym_pop_to(sym_level() - 1); $$ = $1; $$->body = $2; $$->span.end = @2.end; seal($$); }
    ;

par_head
    : PAR IDENT '=' expression TO expression DO
            { $$ = par_begin(@$, $2, @2, $4, $6, @3, @5, @7); }
    ;

/* ---- top level ------------------------------------------------------------ */

function_definition
    : fn_head fn_clauses function_body  { $$ = end_function($1, $2, @2, $3, @$); }
    ;

/* After the declarator: the function is declared, its parameters are in scope (for
   the clauses and the body). */
fn_head
    : decl_specs_pushed declarator      { $$ = begin_function($1, $2, @$, @2); }
    | implicit_specs_pushed implicit_declarator { $$ = begin_function($1, $2, @$, @2); }
    | no_specs_pushed implicit_declarator       { $$ = begin_function($1, $2, @$, @2); }
    ;

/* "f() { ... }": implicit int without any specifier (only a function definition). */
no_specs_pushed
    : %empty                    { $$ = specs_new(@$); spec_push($$); }
    ;

fn_clauses
    : %empty                    { $$ = NULL; }
    | fn_clauses clause         { $$ = $2 ? clause_append($1, $2) : $1; }
    ;

clause
    : IN_KW ':' clause_items ';'    { $$ = mk_clause(CL_IN, @$); $$->items = $3; }
    | OUT_KW ':' clause_items ';'   { $$ = mk_clause(CL_OUT, @$); $$->items = $3; }
    | COND_KW ':' expression ';'    { $$ = mk_clause(CL_COND, @$); $$->cond = $3; $$->cond_span = sp(@3); g_cond = $3; }
    | MODE_KW ':' any_ident ';'
            { $$ = mk_clause(CL_MODE, @$); $$->mode_word = $3; $$->mode_word_loc = @3.loc; }
    | MODE_KW ':' any_ident expression ';'
            { $$ = mk_clause(CL_MODE, @$); $$->mode_word = $3; $$->mode_word_loc = @3.loc;
              $$->mode_masters = $4; }
    | IN_KW ':' error ';'  { $$ = NULL; lex_reset_brackets(); }
    | OUT_KW ':' error ';'  { $$ = NULL; lex_reset_brackets(); }
    | COND_KW ':' error ';'  { $$ = NULL; lex_reset_brackets(); }
    | MODE_KW ':' error ';'  { $$ = NULL; lex_reset_brackets(); }
    ;

clause_items
    : clause_item
    | clause_items ',' clause_item  { ClauseItem **pp = &$1->next; while (*pp) pp = &(*pp)->next; *pp = $3; $$ = $1; }
    ;

clause_item
    : any_ident                         { $$ = mk_item(@1, $1, NULL, @1); }
    | any_ident '[' expression ']'      { $$ = mk_item(@1, $1, $3, @3); }
    ;

function_body
    : '{' block_items '}'           { $$ = mk_block(@$, $2); }
    | '{' block_items error '}'     { $$ = mk_block(@$, $2); }
    ;

%%

/* ---- locations and lexing ---------------------------------------------- */

static void loc_default(WtcLoc *cur, const WtcLoc *rhs, int n)
{
    int i = 1;
    while (i <= n && rhs[i].empty)
        i++;
    if (i > n) {
        cur->start = cur->end = rhs[0].end;
        cur->loc = rhs[0].loc;
        cur->empty = true;
        return;
    }
    int j = n;
    while (rhs[j].empty)
        j--;
    cur->start = rhs[i].start;
    cur->end = rhs[j].end;
    cur->loc = rhs[i].loc;
    cur->empty = false;
}

static int yylex(YYSTYPE *lval, WtcLoc *lloc)
{
    int k = lex_token(lval, lloc);
    g_last_loc = lloc->loc;
    return k;
}

static Span sp(WtcLoc l)
{
    return (Span){l.start, l.end};
}

/* ---- diagnostics ---------------------------------------------------------- */

/* bison's own messages: only "memory exhausted" (stack overflow) reaches here. */
static void yyerror(WtcLoc *loc, const char *msg)
{
    if (lex_fatal())
        return;
    if (strstr(msg, "exhausted")) {
        diag_error(loc->loc, "nesting too deep (parser stack exhausted)");
        lex_stop();
    } else {
        diag_error(loc->loc, "%s", msg);
    }
}

/* How a token is named in a message: identifier "x", 'int', ';', end of file. */
static const char *token_desc(yysymbol_kind_t k, const WtcLoc *l)
{
    static char buf[160];
    const char *what = NULL;
    switch (k) {
    case YYSYMBOL_YYEOF: return "end of file";
    case YYSYMBOL_IDENT: case YYSYMBOL_TYPEDEF_NAME: what = "identifier"; break;
    case YYSYMBOL_INT_LIT: case YYSYMBOL_FLOAT_LIT: what = "number"; break;
    case YYSYMBOL_CHAR_LIT: what = "character constant"; break;
    case YYSYMBOL_STRING_LIT: what = "string literal"; break;
    default: break;
    }
    if (what && l) {
        int n = l->end - l->start;
        const char *t = g_tu->text + l->start;
        if (n > 60)
            snprintf(buf, sizeof buf, "%s \"%.60s...\"", what, t);
        else if (k == YYSYMBOL_IDENT || k == YYSYMBOL_TYPEDEF_NAME || k == YYSYMBOL_INT_LIT || k == YYSYMBOL_FLOAT_LIT)
            snprintf(buf, sizeof buf, "%s \"%.*s\"", what, n, t);
        else
            snprintf(buf, sizeof buf, "%s %.*s", what, n, t);
        return buf;
    }
    if (what)
        return what;
    const char *name = yysymbol_name(k);
    if (name[0] == '\'')
        return name;
    if (name[0] == '"') { /* a string alias: "int" -> 'int' */
        snprintf(buf, sizeof buf, "'%.*s'", (int)strlen(name) - 2, name + 1);
        return buf;
    }
    snprintf(buf, sizeof buf, "'%s'", name);
    return buf;
}

/* "note: to match this '('" when a closer was expected (or the input ended). */
static void note_open_bracket(yysymbol_kind_t la, const yysymbol_kind_t *exp, int nexp)
{
    int skip = (la == YYTRANSLATE('(') || la == YYTRANSLATE('[') || la == YYTRANSLATE('{')) ? 1 : 0;
    char kind;
    Loc loc;
    if (!lex_open_bracket(skip, &kind, &loc))
        return;
    yysymbol_kind_t closer = kind == '(' ? YYTRANSLATE(')') : kind == '[' ? YYTRANSLATE(']') : YYTRANSLATE('}');
    bool want = la == YYSYMBOL_YYEOF;
    for (int i = 0; i < nexp; i++)
        want |= exp[i] == closer;
    if (want)
        diag_note(loc, "to match this '%c'", kind);
}

/* Say what was expected: all of it when short, else the closers among it (the usual
   case: a missing ';' or ')'), else "an expression" when one could start here. */
static int expected_text(const yypcontext_t *ctx, char *out, size_t size)
{
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    yysymbol_kind_t pick[8];
    int np = 0;
    bool ident = false, number = false;
    for (int i = 0; i < n; i++) {
        ident |= exp[i] == YYSYMBOL_IDENT;
        number |= exp[i] == YYSYMBOL_INT_LIT;
    }
    if (n > 0 && n <= 4) {
        for (int i = 0; i < n; i++)
            pick[np++] = exp[i];
    } else {
        static const char closers[] = ";)]}:";
        for (const char *c = closers; *c; c++)
            for (int i = 0; i < n; i++)
                if (exp[i] == YYTRANSLATE((unsigned char)*c))
                    pick[np++] = exp[i];
    }
    int len = 0, shown = 0;
    const char *prev[8];
    for (int i = 0; i < np; i++) {
        const char *d = token_desc(pick[i], NULL);
        bool dup = false; /* identifier and type name read the same */
        for (int k = 0; k < shown; k++)
            dup |= strcmp(prev[k], d) == 0;
        if (dup)
            continue;
        prev[shown] = ast_strndup(d, strlen(d));
        len += snprintf(out + len, size - len, "%s%s", shown++ ? " or " : ", expecting ", d);
    }
    if (np == 0 && ident && number)
        len += snprintf(out + len, size - len, ", expecting an expression");
    (void)len;
    return np;
}

/* "f(...) {" where a function cannot start: inside a block or a struct whose '}' is
   missing. Says so and points at the '{' left open; false when it is not the case. */
static bool function_inside_braces(yysymbol_kind_t la, const WtcLoc *l)
{
    char kind;
    Loc open;
    if (la != YYTRANSLATE('{') || lex_handed_kind(1) != ')' || !lex_open_bracket(1, &kind, &open) ||
        kind != '{')
        return false;
    diag_error(l->loc, "function definition is not allowed here (is a '}' missing before it?)");
    diag_note(open, "to match this '{'");
    return true;
}

static int yyreport_syntax_error(const yypcontext_t *ctx)
{
    if (lex_fatal())
        return 0;
    yysymbol_kind_t exp[YYNTOKENS];
    int nexp = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    yysymbol_kind_t la = yypcontext_token(ctx);
    const WtcLoc *l = yypcontext_location(ctx);
    char msg[600], what[300] = "";
    const char *tname;
    Loc tloc;
    if (lex_unknown_type_before(&tname, &tloc)) { /* "FILE *f = 0;" without <stdio.h> */
        lex_report_unknown_type(tloc, tname);
        return 0;
    }
    if (function_inside_braces(la, l))
        return 0;
    bool want_name = false, want_number = false, want_type = false;
    for (int i = 0; i < nexp; i++) {
        want_name |= exp[i] == YYSYMBOL_IDENT;
        want_number |= exp[i] == YYSYMBOL_INT_LIT;
        want_type |= exp[i] == YYSYMBOL_INT;
    }
    if (la != YYSYMBOL_YYEMPTY && hint_syntax_error(want_name, want_name && want_number, want_type))
        return 0;
    expected_text(ctx, what, sizeof what);
    if (la != YYSYMBOL_YYEMPTY)
        snprintf(msg, sizeof msg, "syntax error, unexpected %s%s", token_desc(la, l), what);
    else
        snprintf(msg, sizeof msg, "syntax error%s", what);
    diag_error(l->loc, "%s", msg);
    note_open_bracket(la, exp, nexp > 0 ? nexp : 0);
    return 0;
}

/* ---- nodes ---------------------------------------------------------------- */

static Node *mk(NodeKind k, WtcLoc l)
{
    return ast_new(k, l.loc, sp(l));
}

/* Compute the height of a node from its children; refuse absurdly deep trees so no
   recursive walk of the AST can exhaust the C stack. */
static Node *seal(Node *n)
{
    Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->inc, n->body};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++)
        if (kids[i] && kids[i]->depth >= n->depth)
            n->depth = kids[i]->depth + 1;
    if (n->depth > AST_MAX_DEPTH && !depth_reported) {
        depth_reported = true;
        diag_error(n->loc, "expression or statement nested too deeply (more than %d levels)",
                   AST_MAX_DEPTH);
        lex_stop();
    }
    return n;
}

static Node *mk_un(NodeKind k, WtcLoc l, Node *a)
{
    Node *n = mk(k, l);
    n->lhs = a;
    return seal(n);
}

static Node *mk_bin(NodeKind k, WtcLoc l, Loc op_loc, const char *op, Node *a, Node *b)
{
    Node *n = mk(k, l);
    if (k == ND_BINARY || k == ND_ASSIGN)
        n->loc = op_loc;
    n->op = op;
    n->lhs = a;
    n->rhs = b;
    return seal(n);
}

static Node *mk_ident(WtcLoc l, const char *name)
{
    Node *n = mk(ND_IDENT, l);
    n->name = name;
    n->decl = sym_lookup(name);
    return n;
}

static Node *mk_lit(NodeKind k, WtcLoc l, const char *text)
{
    Node *n = mk(k, l);
    n->text = text;
    return n;
}

/* Adjacent string literals are one literal; its text is the spellings joined. */
static Node *mk_string(WtcLoc l, Node *prev, const char *text)
{
    if (!prev)
        return mk_lit(ND_STRING_LIT, l, text);
    size_t a = strlen(prev->text), b = strlen(text);
    char *s = ast_alloc(a + b + 1);
    memcpy(s, prev->text, a);
    memcpy(s + a, text, b + 1);
    prev->text = s;
    prev->span.end = l.end;
    return prev;
}

static Node *mk_block(WtcLoc l, Vec *items)
{
    Node *n = mk(ND_BLOCK, l);
    n->args = (Node **)items->v;
    n->nargs = items->n;
    for (int i = 0; i < n->nargs; i++)
        if (n->args[i]->depth >= n->depth)
            n->depth = n->args[i]->depth + 1;
    return seal(n);
}

static void vec_push_args(Node *n, Node *a)
{
    n->args = ast_alloc(sizeof(Node *));
    n->args[0] = a;
    n->nargs = 1;
}

static Vec *vec_new(void)
{
    return ast_alloc(sizeof(Vec));
}

static Vec *vec_push(Vec *v, void *p)
{
    if (v->n == v->cap) {
        int ncap = v->cap ? v->cap * 2 : 4;
        void **nv = ast_alloc(ncap * sizeof(void *));
        if (v->n)
            memcpy(nv, v->v, v->n * sizeof(void *));
        v->v = nv;
        v->cap = ncap;
    }
    v->v[v->n++] = p;
    return v;
}

/* ---- declaration specifiers ---------------------------------------------- */

static Specs *specs_new(WtcLoc l)
{
    Specs *s = ast_alloc(sizeof *s);
    s->span = sp(l);
    s->loc = l.loc;
    return s;
}

static Specs *specs_storage(WtcLoc l, Storage sc)
{
    Specs *s = specs_new(l);
    s->storage = sc;
    return s;
}

static Specs *specs_qual(WtcLoc l, int q)
{
    Specs *s = specs_new(l);
    s->quals = q;
    return s;
}

static Specs *specs_named(WtcLoc l, Type *t)
{
    Specs *s = specs_new(l);
    s->named = t;
    return s;
}

/* A keyword type specifier: count it (long may appear twice). */
static Specs *specs_count(WtcLoc l, int which)
{
    Specs *s = specs_new(l);
    switch (which) {
    case VOID: s->n_void++; break;
    case CHAR: s->n_char++; break;
    case SHORT: s->n_short++; break;
    case INT: s->n_int++; break;
    case LONG: s->n_long++; break;
    case FLOAT: s->n_float++; break;
    case DOUBLE: s->n_double++; break;
    case SIGNED: s->n_signed++; break;
    case UNSIGNED: s->n_unsigned++; break;
    case BOOL: s->n_bool++; break;
    case COMPLEX: s->n_complex++; break;
    case INT128: s->n_int128++; break;
    }
    return s;
}

/* Fold the specifiers 'b' into 'a' (a is always a fresh accumulator). */
static Specs *specs_merge(Specs *a, Specs *b, WtcLoc l)
{
    if (b->storage) {
        if (a->storage && a->storage != b->storage)
            diag_error(b->loc, "multiple storage classes in declaration specifiers");
        a->storage = b->storage;
    }
    a->thread_local |= b->thread_local;
    a->is_inline |= b->is_inline;
    a->is_noreturn |= b->is_noreturn;
    if (b->recursive) {
        a->recursive = true;
        a->recursive_kw = b->recursive_kw;
        a->recursive_loc = b->recursive_loc;
    }
    a->quals |= b->quals;
    a->n_void += b->n_void; a->n_bool += b->n_bool; a->n_char += b->n_char;
    a->n_short += b->n_short; a->n_int += b->n_int; a->n_long += b->n_long;
    a->n_signed += b->n_signed; a->n_unsigned += b->n_unsigned; a->n_float += b->n_float;
    a->n_double += b->n_double; a->n_complex += b->n_complex; a->n_int128 += b->n_int128;
    if (b->named) {
        if (a->named)
            diag_error(b->loc, "two or more data types in declaration specifiers");
        a->named = b->named;
    }
    a->span = sp(l);
    return a;
}

static Type *type_copy(Type *t)
{
    Type *c = type_new(t->kind);
    *c = *t;
    return c;
}

/* The base type the specifiers denote (computed once). */
static Type *specs_type(Specs *s)
{
    if (s->type)
        return s->type;
    Type *t;
    if (s->named) {
        t = type_copy(s->named);
        if (s->n_void + s->n_bool + s->n_char + s->n_short + s->n_int + s->n_long + s->n_float +
            s->n_double + s->n_int128 + s->n_signed + s->n_unsigned)
            diag_error(s->loc, "two or more data types in declaration specifiers");
    } else {
        TypeKind k = s->n_void ? TY_VOID : s->n_bool ? TY_BOOL : s->n_char ? TY_CHAR
                   : s->n_int128 ? TY_INT128 : s->n_short ? TY_SHORT : s->n_float ? TY_FLOAT
                   : s->n_double ? (s->n_long ? TY_LDOUBLE : TY_DOUBLE)
                   : s->n_long >= 2 ? TY_LLONG : s->n_long ? TY_LONG
                   : s->n_complex ? TY_DOUBLE : TY_INT;
        t = type_new(k);
        t->is_unsigned = s->n_unsigned > 0;
        t->is_signed = s->n_signed > 0;
    }
    if (s->n_complex)
        t->is_complex = true;
    t->quals |= s->quals;
    s->type = t;
    return t;
}

static void spec_push(Specs *s)
{
    if (spec_depth == spec_cap) {
        spec_cap = spec_cap ? spec_cap * 2 : 64;
        spec_stack = realloc(spec_stack, spec_cap * sizeof *spec_stack);
        if (!spec_stack)
            abort();
    }
    spec_stack[spec_depth++] = s;
    s->depth = spec_depth;
}

static void spec_pop(void)
{
    if (spec_depth > 0)
        spec_depth--;
}

static void spec_pop_to(int depth)
{
    if (depth >= 0 && spec_depth > depth)
        spec_depth = depth;
}

/* The specifiers of the declaration whose declarators are being parsed. */
static Specs *spec_top(void)
{
    static Specs dummy;
    return spec_depth ? spec_stack[spec_depth - 1] : &dummy;
}

static Type *typedef_use(const char *name)
{
    Decl *d = sym_lookup(name);
    Type *t = type_new(TY_TYPEDEF);
    t->name = name;
    t->base = d ? d->type : NULL;
    /* Keep typedef chains short (every strip walks them): past 500 links, point
       straight at the type the chain ends in. */
    int links = 0;
    for (Type *b = t->base; b && b->kind == TY_TYPEDEF && links <= 500; b = b->base)
        links++;
    if (links > 500)
        t->base = type_strip_typedefs(t->base);
    return t;
}

static Type *typeof_type(WtcLoc l)
{
    Type *t = type_new(TY_TYPEOF);
    t->name = ast_strndup(g_tu->text + l.start, l.end - l.start);
    return t;
}

/* ---- declarators ---------------------------------------------------------- */

/* Report (once per run) a declarator with absurdly many derivations, and stop. */
static void declarator_too_complex(void)
{
    if (depth_reported)
        return;
    depth_reported = true;
    diag_error(g_last_loc, "declarator too complex (more than %d levels)", DTOR_MAX_DERIVED);
    lex_stop();
}

static Dtor *dtor_abstract(void)
{
    return ast_alloc(sizeof(Dtor));
}

static Dtor *dtor_name(WtcLoc l, const char *name)
{
    Dtor *d = dtor_abstract();
    d->name = name;
    d->name_loc = l.loc;
    d->name_span = sp(l);
    return d;
}

/* A pointer chain in token order: each new '*' points to the previous one. */
static Dtor *dtor_wrap(Dtor *d, Type *t, Type **inner_hole)
{
    (void)inner_hole;
    if (!d) {
        d = dtor_abstract();
        d->hole = &t->base;
    } else {
        t->base = d->top;
    }
    d->top = t;
    if (++d->nderived > DTOR_MAX_DERIVED) { /* keep type trees shallow for recursive walkers */
        d->top = t->base;
        d->nderived--;
        declarator_too_complex();
    }
    return d;
}

/* Put the derived type 'outer' (whose own base slot is 'inner_hole') in the hole of d. */
static Dtor *dtor_pointer(Dtor *d, Type *outer, Type **inner_hole)
{
    if (!d->top)
        d->top = outer;
    else
        *d->hole = outer;
    d->hole = inner_hole;
    d->nderived++;
    if (d->nderived > DTOR_MAX_DERIVED)
        declarator_too_complex();
    return d;
}

static Dtor *dtor_array(Dtor *d, Node *len)
{
    Type *a = type_new(TY_ARRAY);
    a->array_len = len;
    return dtor_pointer(d, a, &a->base);
}

static Dtor *dtor_func(Dtor *d, PList *pl)
{
    Type *f = type_new(TY_FUNC);
    if (!pl) {
        f->is_oldstyle = true;
    } else {
        f->params = pl->head;
        f->is_variadic = pl->variadic;
        Type *t0 = type_strip_typedefs(pl->head->type);
        if (!pl->head->next && !pl->head->name && t0 && t0->kind == TY_VOID && !pl->variadic) {
            f->has_void_params = true;
            f->params = NULL;
        }
    }
    return dtor_pointer(d, f, &f->base);
}

static Type *dtor_apply(Dtor *d, Type *base)
{
    if (!d || !d->top)
        return base;
    *d->hole = base;
    return d->top;
}

static Type *type_name_of(Specs *s, Dtor *d)
{
    return dtor_apply(d, specs_type(s));
}

/* 'recursive' anywhere but on a function definition; proto: the declaration is a
   function's prototype. */
static void check_not_recursive_in(Specs *s, bool proto)
{
    if (s->recursive) {
        diag_error(s->recursive_loc, "'recursive' may only mark a function definition");
        if (proto)
            diag_note(s->recursive_loc, "write the prototype without 'recursive': the "
                      "definition carries the keyword and its clauses");
        if (!recursive_noted)
            diag_note(s->recursive_loc, "in a .wtc file 'recursive' followed by a declaration "
                      "is the Work-Time C keyword; elsewhere it is an ordinary name");
        recursive_noted = true;
        s->recursive = false; /* once per declaration */
    }
}

static void check_not_recursive(Specs *s)
{
    check_not_recursive_in(s, false);
}

/* Enter one declarator of the current declaration into the symbol table. */
static Decl *declare(Specs *s, Dtor *d, WtcLoc l)
{
    bool rec = s->recursive;
    Type *t = dtor_apply(d, specs_type(s));
    Type *st = type_strip_typedefs(t);
    if (rec)
        check_not_recursive_in(s, st && st->kind == TY_FUNC);
    Decl *dc = ast_alloc(sizeof *dc);
    dc->kind = s->storage == SC_TYPEDEF ? DK_TYPEDEF : st && st->kind == TY_FUNC ? DK_FUNC : DK_VAR;
    dc->name = d->name;
    dc->type = t;
    dc->storage = s->storage;
    dc->is_thread_local = s->thread_local;
    dc->is_inline = s->is_inline;
    dc->is_global = sym_level() == 0;
    dc->span = sp(l);
    dc->loc = d->name_loc;
    if (dc->is_global) {
        Decl *prev = d->name ? sym_lookup_here(d->name) : NULL;
        if (prev && prev->kind == dc->kind)
            dc->prev_decl = prev;
        if (dc->kind == DK_VAR)
            dc->is_defined = s->storage != SC_EXTERN;
        if (prev && dc->kind == DK_FUNC && prev->funcdef)
            dc->funcdef = prev->funcdef;
    }
    sym_bind(dc);
    return dc;
}

static Node *mk_declaration(WtcLoc l, Specs *s, Vec *decls)
{
    check_not_recursive(s);
    Node *n = mk(ND_DECLARATION, l);
    n->spec_span = s->span;
    if (decls) {
        n->decls = (Decl **)decls->v;
        n->ndecls = decls->n;
    }
    return n;
}

static Param *mk_param(WtcLoc l, Specs *s, Dtor *d)
{
    check_not_recursive(s);
    Param *p = ast_alloc(sizeof *p);
    p->name = d ? d->name : NULL;
    p->type = dtor_apply(d, specs_type(s));
    p->span = sp(l);
    p->loc = d && d->name ? d->name_loc : l.loc;
    if (p->name) { /* visible to later parameters: "int n, int a[n]" */
        Decl *dc = ast_alloc(sizeof *dc);
        dc->kind = DK_PARAM;
        dc->name = p->name;
        dc->type = p->type;
        dc->loc = p->loc;
        dc->span = p->span;
        sym_bind(dc);
    }
    return p;
}

static PList *plist_add(PList *pl, Param *p)
{
    if (!pl) {
        pl = ast_alloc(sizeof *pl);
        pl->head = pl->tail = p;
    } else {
        pl->tail->next = p;
        pl->tail = p;
    }
    return pl;
}

/* ---- struct, union, enum --------------------------------------------------- */

static Member *mk_members(Specs *s, Dtor *d, Loc loc)
{
    check_not_recursive(s);
    Member *m = ast_alloc(sizeof *m);
    m->name = d ? d->name : NULL;
    m->type = dtor_apply(d, specs_type(s));
    m->loc = loc;
    return m;
}

static Member *member_append(Member *a, Member *b)
{
    if (!a)
        return b;
    Member *t = a;
    while (t->next)
        t = t->next;
    t->next = b;
    return a;
}

static Type *new_tag(TypeKind k, const char *name, Loc loc)
{
    Type *t = type_new(k);
    t->name = name;
    t->sinfo = ast_alloc(sizeof(StructInfo));
    t->sinfo->loc = loc;
    return t;
}

/* "struct S" without a body: the visible S, or a new incomplete one. */
static Type *tag_ref(TypeKind k, const char *name, WtcLoc l)
{
    Type *t = sym_tag_lookup(name, false);
    if (!t) {
        t = new_tag(k, name, l.loc);
        sym_tag_bind(name, t, true);
    }
    Type *c = type_copy(t);
    c->kind = k;
    return c;
}

/* "struct S {" : complete the S of this scope, or declare a new one. */
static Type *tag_define(TypeKind k, const char *name, WtcLoc l)
{
    if (!name)
        return new_tag(k, NULL, l.loc);
    Type *t = sym_tag_lookup(name, true);
    if (t && !t->sinfo->complete)
        return t;
    if (t)
        diag_error(l.loc, "redefinition of '%s %s'", k == TY_STRUCT ? "struct" : "union", name);
    t = new_tag(k, name, l.loc);
    sym_tag_bind(name, t, false);
    return t;
}

static Type *tag_complete(Type *t, Member *m)
{
    t->sinfo->members = m;
    t->sinfo->complete = true;
    return type_copy(t);
}

static Type *enum_type(const char *name)
{
    Type *t = type_new(TY_ENUM);
    t->name = name;
    return t;
}

static void declare_enumerator(WtcLoc l, const char *name, Node *value)
{
    Decl *d = ast_alloc(sizeof *d);
    d->kind = DK_ENUMCONST;
    d->name = name;
    d->type = type_new(TY_INT);
    d->init = value;
    d->is_global = sym_level() == 0;
    d->loc = l.loc;
    d->span = sp(l);
    sym_bind(d);
}

/* ---- functions, clauses, par ----------------------------------------------- */

/* The declarator of a function definition is complete: declare the function, open
   its scope and declare its parameters there. */
static FnCtx *begin_function(Specs *s, Dtor *d, WtcLoc l, WtcLoc dl)
{
    Type *t = dtor_apply(d, specs_type(s));
    Type *ft = type_strip_typedefs(t);
    if (!ft || ft->kind != TY_FUNC) {
        diag_error(d->name ? d->name_loc : l.loc, "expected a function declarator before '{'");
        ft = NULL;
    }
    Decl *fd = ast_alloc(sizeof *fd);
    fd->kind = DK_FUNC;
    fd->name = d->name;
    fd->type = t;
    fd->storage = s->storage;
    fd->is_inline = s->is_inline;
    fd->is_global = sym_level() == 0;
    fd->is_defined = true;
    fd->span = sp(dl);
    fd->loc = d->name_loc;
    Decl *prev = d->name ? sym_lookup_here(d->name) : NULL;
    if (prev && prev->kind == DK_FUNC)
        fd->prev_decl = prev;
    sym_bind(fd);

    FuncDef *f = ast_alloc(sizeof *f);
    f->decl = fd;
    f->is_recursive = s->recursive;
    f->recursive_kw = s->recursive_kw;
    f->spec_span = s->span;
    f->declarator_span = sp(dl);
    f->name_span = d->name_span;
    spec_pop();

    g_cond = NULL; /* until this function's cond: clause is seen */
    FnCtx *fc = ast_alloc(sizeof *fc);
    fc->fd = f;
    fc->level = sym_push_scope(false);
    int np = 0;
    for (Param *p = ft ? ft->params : NULL; p; p = p->next)
        np++;
    f->param_decls = ast_alloc((np + 1) * sizeof(Decl *));
    for (Param *p = ft ? ft->params : NULL; p; p = p->next) {
        Decl *pd = ast_alloc(sizeof *pd);
        pd->kind = DK_PARAM;
        pd->name = p->name;
        pd->type = p->type;
        pd->loc = p->loc;
        pd->span = p->span;
        sym_bind(pd);
        f->param_decls[f->nparams++] = pd;
    }
    return fc;
}

static Node *end_function(FnCtx *fc, Clause *cl, WtcLoc clauses_loc, Node *body, WtcLoc l)
{
    g_cond = NULL;
    sym_pop_to(fc->level - 1);
    FuncDef *f = fc->fd;
    Node *n = mk(ND_FUNCDEF, l);
    n->func = f;
    f->clauses = cl;
    f->clauses_span = sp(clauses_loc);
    f->body = body;
    f->decl->funcdef = n;
    for (Decl *p = f->decl->prev_decl; p; p = p->prev_decl)
        p->funcdef = n;
    if (cl && !f->is_recursive)
        diag_error(cl->loc, "clauses are only allowed on a 'recursive' function definition");
    n->depth = body->depth + 1;
    return n;
}

static Clause *mk_clause(ClauseKind k, WtcLoc l)
{
    Clause *c = ast_alloc(sizeof *c);
    c->kind = k;
    c->loc = l.loc;
    c->span = sp(l);
    return c;
}

static Clause *clause_append(Clause *a, Clause *b)
{
    if (!a)
        return b;
    Clause *t = a;
    while (t->next)
        t = t->next;
    t->next = b;
    return a;
}

static ClauseItem *mk_item(WtcLoc l, const char *name, Node *count, WtcLoc count_loc)
{
    ClauseItem *it = ast_alloc(sizeof *it);
    it->name = name;
    it->loc = l.loc;
    it->count = count;
    if (count)
        it->count_span = sp(count_loc);
    it->decl = sym_lookup(name);
    return it;
}

/* A name in cond: expression n that means something else here (sym_lookup finds
   another declaration), or NULL. cond: is small; its depth is bounded as every tree. */
static const char *cond_hidden_name(Node *n)
{
    const char *h = NULL;
    if (!n)
        return NULL;
    Decl *here;
    /* a block-scope 'extern int g;' or function prototype names the same file-scope
       entity as the cond:'s g */
    if (n->kind == ND_IDENT && n->name && n->decl && (here = sym_lookup(n->name)) != n->decl &&
        !(here && (here->kind == DK_FUNC || here->storage == SC_EXTERN) && n->decl->is_global))
        return n->name;
    Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->inc, n->body};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0] && !h; i++)
        h = cond_hidden_name(kids[i]);
    for (int i = 0; i < n->nargs && !h; i++)
        h = cond_hidden_name(n->args[i]);
    return h;
}

/* The header of a par statement: open the body's scope with the index declared. */
static Node *par_begin(WtcLoc l, const char *name, WtcLoc name_loc, Node *lo, Node *hi,
                       WtcLoc eq_loc, WtcLoc to_loc, WtcLoc do_loc)
{
    Node *n = mk(ND_PAR, l);
    n->name = name;
    n->name_loc = name_loc.loc;
    n->lhs = lo;
    n->rhs = hi;
    n->kw_eq = sp(eq_loc);
    n->kw_to = sp(to_loc);
    n->kw_do = sp(do_loc);
    n->header = sp(l);
    n->cond_hidden = cond_hidden_name(g_cond); /* before the index is declared: cond:
                                                  is evaluated outside the loop */
    sym_push_scope(false);
    Decl *d = ast_alloc(sizeof *d);
    d->kind = DK_VAR;
    d->name = name;
    d->type = type_new(TY_INT);
    d->loc = name_loc.loc;
    d->span = sp(name_loc);
    sym_bind(d);
    n->decl = d;
    return n;
}

/* ---- entry point ------------------------------------------------------------ */

void parse_note_cleanup(int offset)
{
    TranslationUnit *tu = g_tu;
    if (tu->ncleanups == tu->capcleanups) { /* the arena never frees: grow by copying */
        int cap = tu->capcleanups ? 2 * tu->capcleanups : 8;
        int *v = ast_alloc((size_t)cap * sizeof *v);
        if (tu->ncleanups)
            memcpy(v, tu->cleanups, (size_t)tu->ncleanups * sizeof *v);
        tu->cleanups = v;
        tu->capcleanups = cap;
    }
    tu->cleanups[tu->ncleanups++] = offset;
}

void parse_note_file(const char *name)
{
    TranslationUnit *tu = g_tu;
    for (int i = 0; i < tu->nfiles; i++)
        if (tu->files[i] == name)
            return;
    if (tu->nfiles == tu->capfiles) { /* the arena never frees: grow by copying */
        int cap = tu->capfiles ? 2 * tu->capfiles : 8;
        const char **v = ast_alloc((size_t)cap * sizeof *v);
        if (tu->nfiles)
            memcpy(v, tu->files, (size_t)tu->nfiles * sizeof *v);
        tu->files = v;
        tu->capfiles = cap;
    }
    tu->files[tu->nfiles++] = name;
}

TranslationUnit *parse_translation_unit(const char *path, const char *text, int len)
{
    TranslationUnit *tu = ast_alloc(sizeof *tu);
    if (len < 0)
        len = 0;
    char *copy = ast_alloc((size_t)len + 1); /* guarantees the terminating NUL */
    if (len)
        memcpy(copy, text, len);
    tu->path = path;
    tu->text = copy;
    tu->len = len;
    g_tu = tu;
    g_items = (Vec){0};
    spec_depth = 0;
    depth_reported = false;
    recursive_noted = false;
    hints_reset();
    int before = diag_error_count();
    sym_init();
    lex_init(path, copy, len);
    yyparse();
    lex_finish();
    tu->items = (Node **)g_items.v;
    tu->nitems = g_items.n;
    tu->nerrors = diag_error_count() - before;
    return tu;
}
