// Writing and reading captured launches (capture.h). A capture file holds, in native byte
// order: the magic "goaccel-capture-1\n", the kernel's name and a newline, the grid and block
// shapes (six uint32), the parameter count and each parameter's size and bytes, then the
// allocation count and each allocation's address, size and bytes.
#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace fake {

static const char kMagic[] = "goaccel-capture-1\n";

void capture(const emu::Launch &l, const std::vector<Block> &blocks) {
	static const char *dir = getenv("FAKE_CUDA_CAPTURE");
	if (!dir || !*dir) return;
	int n = l.kernel->launches.load();
	if (n > kCaptures) return;
	std::string path = std::string(dir) + "/" + l.kernel->name + "." + std::to_string(getpid()) + "." + std::to_string(n) + ".cap";
	FILE *f = fopen(path.c_str(), "wb");
	if (!f) return;
	fwrite(kMagic, 1, sizeof kMagic - 1, f);
	fprintf(f, "%s\n", l.kernel->name);
	uint32_t shape[6] = {l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z};
	fwrite(shape, sizeof shape, 1, f);
	uint32_t np = (uint32_t)l.kernel->params.size();
	fwrite(&np, sizeof np, 1, f);
	for (uint32_t i = 0; i < np; i++) {
		uint64_t size = l.kernel->params[i].size;
		fwrite(&size, sizeof size, 1, f);
		fwrite(l.args[i], 1, size, f);
	}
	std::vector<Block> uniq;
	for (const Block &b : blocks)
		if (std::none_of(uniq.begin(), uniq.end(), [&](const Block &u) { return u.base == b.base; })) uniq.push_back(b);
	uint32_t nb = (uint32_t)uniq.size();
	fwrite(&nb, sizeof nb, 1, f);
	for (const Block &b : uniq) {
		uint64_t base = b.base, size = b.size;
		fwrite(&base, sizeof base, 1, f);
		fwrite(&size, sizeof size, 1, f);
		fwrite((const void *)b.base, 1, b.size, f);
	}
	fclose(f);
}

bool read_capture(const std::string &path, Captured *c, std::string *err) {
	FILE *f = fopen(path.c_str(), "rb");
	if (!f) {
		*err = path + ": cannot open";
		return false;
	}
	auto bad = [&](const char *what) {
		*err = path + ": " + what;
		fclose(f);
		return false;
	};
	char magic[sizeof kMagic] = {};
	if (fread(magic, 1, sizeof kMagic - 1, f) != sizeof kMagic - 1 || std::string(magic) != kMagic) return bad("not a capture file");
	char name[256];
	if (!fgets(name, sizeof name, f)) return bad("no kernel name");
	c->kernel = name;
	if (!c->kernel.empty() && c->kernel.back() == '\n') c->kernel.pop_back();
	uint32_t shape[6], np, nb;
	if (fread(shape, sizeof shape, 1, f) != 1 || fread(&np, sizeof np, 1, f) != 1) return bad("truncated");
	c->grid = dim3(shape[0], shape[1], shape[2]);
	c->block = dim3(shape[3], shape[4], shape[5]);
	for (uint32_t i = 0; i < np; i++) {
		uint64_t size;
		if (fread(&size, sizeof size, 1, f) != 1 || size > (1 << 20)) return bad("truncated parameter");
		std::vector<unsigned char> b(size);
		if (fread(b.data(), 1, size, f) != size) return bad("truncated parameter");
		c->params.push_back(std::move(b));
	}
	if (fread(&nb, sizeof nb, 1, f) != 1) return bad("truncated");
	for (uint32_t i = 0; i < nb; i++) {
		uint64_t base, size;
		if (fread(&base, sizeof base, 1, f) != 1 || fread(&size, sizeof size, 1, f) != 1) return bad("truncated allocation");
		std::vector<unsigned char> b(size);
		if (fread(b.data(), 1, size, f) != size) return bad("truncated allocation");
		c->blocks.emplace_back(base, std::move(b));
	}
	fclose(f);
	return true;
}

} // namespace fake
