// replay runs captured launches (capture.h) again, outside the Go program that made them:
// `replay DIR` runs every DIR/*.cap through the emulator with its memory restored and its
// pointer parameters moved to the restored allocations. Built with -fsanitize=thread and
// EMU_TSAN (`make test-cuda-tsan`), it makes ThreadSanitizer watch every kernel the emulated
// suite launched: a missing __syncthreads or a racy update shows as a data race report.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "capture.h"
#include "emu/kernel.h"

using namespace fake;

static bool replay(const std::string &path, std::string *err) {
	Captured c;
	if (!read_capture(path, &c, err)) return false;
	emu::Kernel *k = emu::find_kernel(c.kernel.c_str());
	if (!k) {
		*err = path + ": no compiled kernel " + c.kernel;
		return false;
	}
	if (k->params.size() != c.params.size()) {
		*err = path + ": " + c.kernel + " has " + std::to_string(k->params.size()) + " parameters, the capture " + std::to_string(c.params.size());
		return false;
	}
	std::vector<unsigned char *> mem;
	for (auto &[base, bytes] : c.blocks) {
		unsigned char *m = (unsigned char *)aligned_alloc(256, (bytes.size() + 255) / 256 * 256 + 256);
		memcpy(m, bytes.data(), bytes.size());
		mem.push_back(m);
	}
	std::vector<std::vector<unsigned char>> params = c.params;
	std::vector<void *> args;
	for (size_t i = 0; i < params.size(); i++) {
		params[i].resize(params[i].size() + 16); // room for the type's alignment padding
		if (k->params[i].pointer) {
			uint64_t p;
			memcpy(&p, params[i].data(), sizeof p);
			for (size_t b = 0; b < c.blocks.size(); b++)
				if (p >= c.blocks[b].first && p <= c.blocks[b].first + c.blocks[b].second.size()) {
					uint64_t q = (uint64_t)(uintptr_t)mem[b] + (p - c.blocks[b].first);
					memcpy(params[i].data(), &q, sizeof q);
					break;
				}
		}
		args.push_back(params[i].data());
	}
	emu::Launch l{k, c.grid, c.block, args.data()};
	emu::Failure f = emu::run(l);
	for (unsigned char *m : mem) free(m);
	if (!f.error.empty()) {
		*err = path + ": " + c.kernel + ": " + f.error;
		return false;
	}
	return true;
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: replay DIR (a folder of FAKE_CUDA_CAPTURE files)\n");
		return 2;
	}
	DIR *d = opendir(argv[1]);
	if (!d) {
		perror(argv[1]);
		return 2;
	}
	std::vector<std::string> files;
	while (dirent *e = readdir(d)) {
		std::string n = e->d_name;
		if (n.size() > 4 && n.compare(n.size() - 4, 4, ".cap") == 0) files.push_back(std::string(argv[1]) + "/" + n);
	}
	closedir(d);
	std::sort(files.begin(), files.end());
	std::set<std::string> kernels;
	int failed = 0;
	for (const std::string &f : files) {
		std::string err;
		if (!replay(f, &err)) {
			fprintf(stderr, "replay: %s\n", err.c_str());
			failed++;
			continue;
		}
		kernels.insert(f.substr(f.rfind('/') + 1, f.find('.', f.rfind('/')) - f.rfind('/') - 1));
	}
	printf("replayed %zu launches of %zu kernels on %d threads; %d failed\n", files.size() - failed, kernels.size(), emu::workers(), failed);
	return failed || files.empty() ? 1 : 0;
}
