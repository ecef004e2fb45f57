#!/bin/bash
# Device run 1 of helper "tile": kernel lab over variants, then the Level 3 report.
L=./bin/example-kernel_lab
$L --reps 11 --shapes 4096x4096x4096 --layouts NN-C,TN-C,NT-F,TT-F --variants "auto;bm=128,bn=128,bk=16,nbuf=1;bm=128,bn=128,bk=8,nbuf=1;bm=128,bn=128,bk=32,nbuf=1;bm=128,bn=128,bk=8,nbuf=2;bm=128,bn=64,bk=16,nbuf=2;bm=64,bn=64,bk=16,nbuf=2;swap=0" 2>&1 | grep -v XDG
$L --reps 11 --shapes 1024x1024x1024,2048x2048x2048,8192x8192x8192 --layouts NN-C --variants "auto;bm=128,bn=128,bk=16,nbuf=1;bm=128,bn=128,bk=8,nbuf=2;bm=128,bn=64,bk=16,nbuf=2;bm=64,bn=64,bk=16,nbuf=2;bm=64,bn=64,bk=32,nbuf=1" 2>&1 | grep -v XDG
$L --reps 11 --shapes 128x4096x4096,8192x64x8192,64x8192x8192,4096x4096x128,4096x4096x1024 --layouts NN-C --variants "auto;split=1;split=2;split=4;split=8;split=16;bm=64,bn=64,bk=16,nbuf=2,split=8;bm=64,bn=64,bk=32,nbuf=1,split=8;bm=128,bn=64,bk=16,nbuf=2,split=4;bm=64,bn=128,bk=16,nbuf=2,split=4" 2>&1 | grep -v XDG
$L --reps 11 --shapes 4097x4097x4097,1000x1000x1000,3000x5000x700 --layouts NN-C --variants "auto;pack=0;bm=128,bn=128,bk=16,nbuf=2;bm=128,bn=64,bk=16,nbuf=2;bm=64,bn=64,bk=16,nbuf=2;split=2;split=4" 2>&1 | grep -v XDG
./bin/example-level3_report --sections level3 --level3-n 4096 --reps 11 --check 0 2>&1 | grep -v XDG
./bin/example-level3_report --sections level3 --level3-n 1024 --reps 5 --check 1024 2>&1 | grep -v XDG
