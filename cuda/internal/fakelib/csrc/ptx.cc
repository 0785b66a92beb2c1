// Reading PTX entries: `.visible .entry name(.param .u64 name_param_0, .param .align 8 .b8
// name_param_1[72], …)`.
#include "ptx.h"

#include <ctype.h>
#include <string.h>

namespace fake {

namespace {

// type_size is the width of a PTX fundamental type (.u64, .f32, .b8, …), 0 if s is none.
size_t type_size(const std::string &s) {
	if (s.size() < 3 || s[0] != '.') return 0;
	char k = s[1];
	if (k != 'b' && k != 'u' && k != 's' && k != 'f') return 0;
	int bits = atoi(s.c_str() + 2);
	if (s == ".f16x2") return 4;
	if (bits == 8 || bits == 16 || bits == 32 || bits == 64) return (size_t)bits / 8;
	return 0;
}

struct Lexer {
	const char *p;
	int line = 1;
	void skip() {
		for (;;) {
			while (*p && isspace((unsigned char)*p)) {
				if (*p == '\n') line++;
				p++;
			}
			if (p[0] == '/' && p[1] == '/') {
				while (*p && *p != '\n') p++;
			} else if (p[0] == '/' && p[1] == '*') {
				const char *e = strstr(p + 2, "*/");
				for (const char *q = p; q < (e ? e : p + strlen(p)); q++)
					if (*q == '\n') line++;
				p = e ? e + 2 : p + strlen(p);
			} else {
				return;
			}
		}
	}
	// next returns the next token: a word (.entry, name, 72), or one punctuation character.
	std::string next() {
		skip();
		if (!*p) return "";
		const char *s = p;
		if (isalnum((unsigned char)*p) || *p == '.' || *p == '_' || *p == '$' || *p == '%') {
			p++;
			while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '$' || (*p == '.' && s[0] != '.'))) p++;
			return std::string(s, p);
		}
		p++;
		return std::string(s, p);
	}
};

} // namespace

bool parse_ptx(const char *text, std::vector<Entry> *out, std::string *err) {
	Lexer lx{text};
	std::string first = lx.next();
	if (first != ".version") {
		*err = "ptxas application ptx input, line " + std::to_string(lx.line) + "; fatal   : Missing .version directive at start of file";
		return false;
	}
	for (std::string t = lx.next(); !t.empty(); t = lx.next()) {
		if (t != ".entry") continue;
		Entry e;
		e.name = lx.next();
		if (lx.next() != "(") {
			*err = "ptxas application ptx input, line " + std::to_string(lx.line) + "; error   : syntax error in the parameters of " + e.name;
			return false;
		}
		for (std::string u = lx.next(); u != ")"; u = lx.next()) {
			if (u.empty()) {
				*err = "ptxas: unexpected end of file in the parameters of " + e.name;
				return false;
			}
			if (u == ",") continue;
			if (u != ".param") {
				*err = "ptxas application ptx input, line " + std::to_string(lx.line) + "; error   : unexpected '" + u + "' in the parameters of " + e.name;
				return false;
			}
			size_t align = 0, elem = 0, count = 1;
			for (std::string v = lx.next();; v = lx.next()) {
				if (v == ".align") {
					align = (size_t)atoi(lx.next().c_str());
				} else if (size_t s = type_size(v)) {
					elem = s;
				} else if (v == ".ptr" || v == ".global" || v == ".const" || v == ".shared" || v == ".local") {
				} else { // the parameter's name, perhaps followed by [count]
					const char *save = lx.p;
					int line = lx.line;
					if (lx.next() == "[") {
						count = (size_t)atoi(lx.next().c_str());
						lx.next(); // ]
					} else {
						lx.p = save;
						lx.line = line;
					}
					break;
				}
			}
			if (elem == 0) {
				*err = "ptxas: a parameter of " + e.name + " has no type";
				return false;
			}
			e.params.push_back(emu::Param{elem * count, align ? align : elem, false});
		}
		out->push_back(std::move(e));
	}
	return true;
}

} // namespace fake
