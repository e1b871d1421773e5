#!/usr/bin/env ruby
# lkp-compare.rb BASE HEAD [--all]: print what lkp-tests' Compare::Comparer
# (commit axis, the code path of `lkp ncompare`) shows for two LKP result
# roots (each a dir with matrix.json and job.yaml or 0/job.yaml).
# --all: every metric (use_all_stat_keys), as `lkp ncompare -a`.
# LKP_SRC must name an lkp-tests work tree (the harness uses bbbc29c49).
lkp_src = ENV['LKP_SRC']
abort 'lkp-compare.rb: LKP_SRC is not set' if lkp_src.nil? || lkp_src.empty?
args = ARGV.dup
all = !args.delete('--all').nil?
abort "usage: lkp-compare.rb ROOT1 ROOT2 [ROOT3 ...] [--all]" unless args.size >= 2
args.each { |d| abort "lkp-compare.rb: #{d}: no matrix.json" unless File.file?(File.join(d, 'matrix.json')) }

LKP_SRC = lkp_src
require "#{LKP_SRC}/lib/compare"
require "#{LKP_SRC}/lib/result_root"

roots = args.map { |d| MResultRoot.new(File.expand_path(d)) }
comparer = Compare::Comparer.new
comparer.set_mresult_roots(roots)
        .set_sort_mresult_roots(false)
        .set_compare_axis_keys([COMMIT_AXIS_KEY])
comparer.set_use_all_stat_keys(true) if all
comparer.compare
