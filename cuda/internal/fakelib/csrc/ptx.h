// The part of PTX the fake driver reads: the kernel entries and their .param lists, which
// decide how many bytes of each kernelParams value cuLaunchKernel copies (as the real driver
// does). The replay tool reads captured launches with the same declarations.
#pragma once

#include <string>
#include <vector>

#include "emu/kernel.h"

namespace fake {

struct Entry {
	std::string name;
	std::vector<emu::Param> params; // size and alignment of each .param, in order
};

// parse_ptx returns the entries of a PTX module, or false with a message in the manner of
// ptxas when the text is not PTX.
bool parse_ptx(const char *text, std::vector<Entry> *out, std::string *err);

} // namespace fake
