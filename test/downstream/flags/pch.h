// pch.h - the flags test's precompiled header: its macro reaches flags.cpp
// only through the -include the compiler gets.
#pragma once
#define FLAGS_FROM_PCH 1
